// What a browser app ships for each public package: an esbuild bundle (ESM, minified, browser
// platform) of the package's whole public API, and that bundle gzipped at level 9.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Platform } from "esbuild";
import { publicPackages, repoRoot, type WorkspacePackage } from "./workspace.ts";

export interface SizeEntry {
  name: string;
  /** The module source bundled: what the app would import. */
  source: string;
  /** Where its imports resolve from; the bench's own directory by default. */
  resolveDir?: string;
  /**
   * Export conditions the bundler resolves with, as an app's production build does (Vite and webpack
   * add `production`): the packages' development-only option checks are then left out.
   */
  conditions?: string[];
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

/**
 * The whole public API of each public package, bundled from the package's own directory (the package
 * imports itself by name), so a package needs no entry in the bench's dependencies to be measured.
 * `excluded` names the packages that have no browser bundle to measure.
 */
export function packageEntries(
  packages: readonly WorkspacePackage[],
  excluded: Readonly<Record<string, string>>,
): SizeEntry[] {
  return packages
    .filter((p) => !(p.name in excluded))
    .map((p) => ({
      name: p.name,
      source: `export * from "${p.name}";`,
      resolveDir: join(repoRoot, p.dir),
    }));
}

/** The name of the bundle the issue's size aim is about: both packages' whole public API. */
export const BOTH_ENTRY = "@engage-voice/client + @engage-voice/auth";

/** Bundles of several packages: what an app ships when it uses them together. */
export const COMBINED_ENTRIES: SizeEntry[] = [
  {
    name: BOTH_ENTRY,
    source: `export * from "@engage-voice/client";\nexport * from "@engage-voice/auth";`,
  },
  {
    // What an app of the exchange flow ships from its production build: esbuild drops the rest
    // (legacy login, API tokens), and the `production` condition the development-only checks.
    name: "an app's imports: createClient + createTokenManager",
    conditions: ["production"],
    source: `export { createClient } from "@engage-voice/client";\nexport { createTokenManager } from "@engage-voice/auth";`,
  },
];

/** The bundles the budgets hold and the tables show: every public package not excluded, then the combinations. */
export async function ownEntries(excluded: Readonly<Record<string, string>>): Promise<SizeEntry[]> {
  return [...packageEntries(await publicPackages(), excluded), ...COMBINED_ENTRIES];
}

export const REFERENCE_ENTRIES: SizeEntry[] = [
  {
    name: "openapi-fetch",
    source: `export * from "openapi-fetch";\nexport { default } from "openapi-fetch";`,
  },
  { name: "@ringcentral/sdk", source: `export * from "@ringcentral/sdk";` },
];

const resolveDir = fileURLToPath(new URL("..", import.meta.url));

/** The minified bundle of one entry, as the size section measures it, with the files it drew on. */
export async function bundle(entry: SizeEntry, platform: Platform = "browser") {
  const result = await build({
    stdin: {
      contents: entry.source,
      resolveDir: entry.resolveDir ?? resolveDir,
      sourcefile: "entry.js",
      loader: "js",
    },
    bundle: true,
    minify: true,
    format: "esm",
    platform,
    target: "es2022",
    write: false,
    logLevel: "silent",
    legalComments: "none",
    metafile: true,
    ...(entry.conditions ? { conditions: entry.conditions } : {}),
  });
  return {
    code: result.outputFiles[0]?.contents ?? new Uint8Array(),
    inputs: Object.keys(result.metafile.inputs),
  };
}

/** Bundles one entry; resolves to its sizes, or to esbuild's errors when it cannot be bundled. */
export async function measureSize(
  entry: SizeEntry,
  platform: Platform = "browser",
): Promise<Size | SizeFailure> {
  try {
    const { code } = await bundle(entry, platform);
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
