// A scratch consumer project: a template from consumers/ or types/ copied into a temporary folder,
// with our packages installed by name by plain npm from the rehearsed registry, as a user's project
// gets them from npm.
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { plainEnv } from "@engage-voice/release/env";
import { runOk } from "@engage-voice/test-kit/processes";
import { expectReleased, type Published, versionOf } from "./published.ts";

export interface ConsumerOptions {
  /** Template folder to copy. */
  template: string;
  /** Where the project goes; must not exist yet. */
  dir: string;
  published: Published;
  /** Our packages beyond client and auth, installed at their released versions. */
  packages?: string[];
  /** Other registry dependencies, name to exact version. */
  dependencies?: Record<string, string>;
}

/** What npm prints when the registry cannot be reached, or a package is missing from an offline cache. */
const NETWORK_FAILURE =
  /E(?:CONNREFUSED|CONNRESET|NOTFOUND|AI_AGAIN|TIMEDOUT|NETUNREACH|NOTCACHED)|SELF_SIGNED_CERT|UNABLE_TO_(?:GET|VERIFY)|network/i;

export async function createConsumer(options: ConsumerOptions): Promise<string> {
  const { dir, published } = options;
  await cp(options.template, dir, { recursive: true, errorOnExist: true, force: false });
  const manifestPath = join(dir, "package.json");
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as Record<string, unknown>;
  const ours = ["@engage-voice/client", "@engage-voice/auth", ...(options.packages ?? [])];
  manifest.dependencies = {
    ...Object.fromEntries(ours.map((name) => [name, versionOf(published, name)])),
    ...options.dependencies,
  };
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  // Our scope from the rehearsed registry, as a user's .npmrc points a scope at a private one. npm's
  // cache keys a package document by its URL, and this registry's port is new on every run, so the
  // release is always fetched from it; openapi-fetch, msw and the like come from npm's cache, else
  // from the public registry.
  await writeFile(join(dir, ".npmrc"), `@engage-voice:registry=${published.url}\n`);
  // No retries and a short timeout: a machine without the network (or, under turbo, without its CA
  // certificates) fails here in seconds, saying so, instead of waiting out npm's backoff.
  await runOk(
    "npm",
    [
      "install",
      "--no-package-lock",
      "--prefer-offline",
      "--ignore-scripts",
      "--fetch-retries=0",
      "--fetch-timeout=30000",
    ],
    { cwd: dir, env: plainEnv(), timeoutMs: 180_000 },
  ).catch((error: Error) => {
    if (!NETWORK_FAILURE.test(error.message)) {
      throw error;
    }
    throw new Error(
      `npm could not fetch ${manifestPath}'s registry packages, and they are not all in its cache (no retries): run the matrix once on a machine with network access to fill npm's cache, then again here\n${error.message}`,
    );
  });
  await expectReleased(dir, published);
  return dir;
}
