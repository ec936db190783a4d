// What a browser app ships for each package: an esbuild bundle (ESM, minified, browser platform) of
// the package's whole public API, and that bundle gzipped at level 9.
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Platform } from "esbuild";

export interface SizeEntry {
  name: string;
  /** The module source bundled: what the app would import. */
  source: string;
}

export interface Size {
  name: string;
  platform: Platform;
  minified: number;
  gzip: number;
}

export interface SizeFailure {
  name: string;
  platform: Platform;
  /** esbuild's first errors, one a line. */
  errors: string[];
}

/** The bundles the budgets hold and the tables show. */
export const OWN_ENTRIES: SizeEntry[] = [
  { name: "@engage-voice/client", source: `export * from "@engage-voice/client";` },
  { name: "@engage-voice/auth", source: `export * from "@engage-voice/auth";` },
  {
    name: "@engage-voice/client + @engage-voice/auth",
    source: `export * from "@engage-voice/client";\nexport * from "@engage-voice/auth";`,
  },
];

export const REFERENCE_ENTRIES: SizeEntry[] = [
  {
    // What an app of the exchange flow imports: esbuild drops the rest (legacy login, API tokens).
    name: "an app's imports: createClient + createTokenManager",
    source: `export { createClient } from "@engage-voice/client";\nexport { createTokenManager } from "@engage-voice/auth";`,
  },
  {
    name: "openapi-fetch",
    source: `export * from "openapi-fetch";\nexport { default } from "openapi-fetch";`,
  },
  { name: "@ringcentral/sdk", source: `export * from "@ringcentral/sdk";` },
];

const resolveDir = fileURLToPath(new URL("..", import.meta.url));

/** Bundles one entry; resolves to its sizes, or to esbuild's errors when it cannot be bundled. */
export async function measureSize(
  entry: SizeEntry,
  platform: Platform = "browser",
): Promise<Size | SizeFailure> {
  try {
    const result = await build({
      stdin: { contents: entry.source, resolveDir, sourcefile: "entry.js", loader: "js" },
      bundle: true,
      minify: true,
      format: "esm",
      platform,
      target: "es2022",
      write: false,
      logLevel: "silent",
      legalComments: "none",
    });
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    return {
      name: entry.name,
      platform,
      minified: code.byteLength,
      gzip: gzipSync(code, { level: 9 }).byteLength,
    };
  } catch (error) {
    const errors = (error as { errors?: { text: string }[] }).errors?.map((e) => e.text) ?? [String(error)];
    return { name: entry.name, platform, errors: [...new Set(errors)].slice(0, 3) };
  }
}

export function isSize(value: Size | SizeFailure): value is Size {
  return "minified" in value;
}
