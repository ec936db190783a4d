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

/** The name of the bundle of issue 20's aim: what an app of the exchange flow ships. */
export const APP_ENTRY_NAME = "an app's imports: createClient + createTokenManager";

/** Issue 20's aim for {@link APP_ENTRY_NAME}, in bytes min+gzip. */
export const APP_AIM = 8_500;

/** The imports of an app of the exchange flow, in the source of a bundle. */
const APP_IMPORTS = `export { createClient } from "@engage-voice/client";\nexport { createTokenManager } from "@engage-voice/auth";`;

/** Bundles of several packages: what an app ships when it uses them together. */
export const COMBINED_ENTRIES: SizeEntry[] = [
  {
    name: BOTH_ENTRY,
    source: `export * from "@engage-voice/client";\nexport * from "@engage-voice/auth";`,
  },
  {
    // What an app of the exchange flow ships from its production build: esbuild drops the rest
    // (legacy login, API tokens), and the `production` condition the development-only checks and
    // the messages that explain each fix (the errors keep their code and a link to the docs).
    name: APP_ENTRY_NAME,
    conditions: ["production"],
    source: APP_IMPORTS,
  },
];

/**
 * The floor of the app's imports: this project's client with every guard of a call (deadline,
 * abort, retries, manual redirects, the origin check of its base URL) and the least auth middleware
 * that is correct for one token: it asks for the token on each request and sets the header. No
 * renewal, store, rate limit or answer validation: what the token manager adds is the difference.
 */
export const FLOOR_ENTRY: SizeEntry = {
  name: "the floor: createClient + a one-line bearer middleware",
  conditions: ["production"],
  source: `import { createClient } from "@engage-voice/client";
export function authorised(token) {
  const client = createClient();
  client.use({ onRequest: async ({ request }) => { request.headers.set("Authorization", \`Bearer \${await token()}\`); return request; } });
  return client;
}`,
};

/** What a feature an app opts into adds to the app's imports, measured on `platform`. */
export interface OptIn {
  name: string;
  /** When an app pays it. */
  note: string;
  /** The app's imports with the feature's. */
  entry: SizeEntry;
  platform: Platform;
}

/**
 * The features an app of the exchange flow does not import unless it uses them: each is the app's
 * imports plus the feature's, so its cost is the difference. The file store is Node-only, so it is
 * measured against the app's imports bundled for Node.
 */
export const OPT_INS: OptIn[] = [
  {
    name: "development build (no `production` condition): option checks, nearest-name hints, messages that explain each fix",
    entry: { name: "development", source: APP_IMPORTS },
    platform: "browser",
    note: "in a development build, and in Node, which resolves `default`",
  },
  {
    name: "the deprecated host: createLegacyClient + legacyLogin",
    entry: {
      name: "legacy",
      conditions: ["production"],
      source: `${APP_IMPORTS}\nexport { createLegacyClient } from "@engage-voice/client";\nexport { legacyLogin } from "@engage-voice/auth";`,
    },
    platform: "browser",
    note: "when imported",
  },
  {
    name: "permanent API tokens: apiTokens + apiTokenMiddleware",
    entry: {
      name: "api tokens",
      conditions: ["production"],
      source: `${APP_IMPORTS}\nexport { apiTokens, apiTokenMiddleware } from "@engage-voice/auth";`,
    },
    platform: "browser",
    note: "when imported",
  },
  {
    name: "a store of your own with a lock: withLease of @engage-voice/auth/store-kit",
    entry: {
      name: "store kit",
      conditions: ["production"],
      source: `${APP_IMPORTS}\nexport { withLease } from "@engage-voice/auth/store-kit";`,
    },
    platform: "browser",
    note: "when imported (@engage-voice/store-redis imports it too)",
  },
  {
    name: "the file store (Node only): fileStore of @engage-voice/auth/node",
    entry: {
      name: "file store",
      conditions: ["production"],
      source: `${APP_IMPORTS}\nexport { fileStore } from "@engage-voice/auth/node";`,
    },
    platform: "node",
    note: "when imported",
  },
];

export interface OptInCost {
  name: string;
  note: string;
  platform: Platform;
  /** Bytes min+gzip the feature adds to the app's imports on its platform. */
  gzip: number;
  /** Bytes minified it adds. */
  minified: number;
}

/** Each opt-in's cost: its bundle less the app's imports bundled the same way. */
export async function measureOptIns(
  optIns: readonly OptIn[] = OPT_INS,
): Promise<(OptInCost | SizeFailure)[]> {
  const app = COMBINED_ENTRIES.find((e) => e.name === APP_ENTRY_NAME) as SizeEntry;
  const bases = new Map<Platform, Size | SizeFailure>();
  const costs: (OptInCost | SizeFailure)[] = [];
  for (const optIn of optIns) {
    const base = bases.get(optIn.platform) ?? (await measureSize(app, optIn.platform));
    bases.set(optIn.platform, base);
    const size = await measureSize(optIn.entry, optIn.platform);
    if (!isSize(base)) {
      costs.push(base);
    } else if (!isSize(size)) {
      costs.push({ ...size, name: optIn.name });
    } else {
      costs.push({
        name: optIn.name,
        note: optIn.note,
        platform: optIn.platform,
        gzip: size.gzip - base.gzip,
        minified: size.minified - base.minified,
      });
    }
  }
  return costs;
}

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
