// A scratch consumer project: a template from consumers/ or types/ copied into a temporary folder,
// with the packed tarballs installed by plain npm, as a user's project would get them.
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Tarballs, tarballOf } from "./pack.ts";
import { consumerEnv, runOk } from "./run.ts";

export interface ConsumerOptions {
  /** Template folder to copy. */
  template: string;
  /** Where the project goes; must not exist yet. */
  dir: string;
  tarballs: Tarballs;
  /** Other registry dependencies, name to exact version. */
  dependencies?: Record<string, string>;
  /** Files to add, name to contents. */
  files?: Record<string, string>;
}

/** What npm prints when the registry cannot be reached, or a package is missing from an offline cache. */
const NETWORK_FAILURE =
  /E(?:CONNREFUSED|CONNRESET|NOTFOUND|AI_AGAIN|TIMEDOUT|NETUNREACH|NOTCACHED)|SELF_SIGNED_CERT|UNABLE_TO_(?:GET|VERIFY)|network/i;

export async function createConsumer(options: ConsumerOptions): Promise<string> {
  const { dir, tarballs } = options;
  await cp(options.template, dir, { recursive: true, errorOnExist: true, force: false });
  const manifestPath = join(dir, "package.json");
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as Record<string, unknown>;
  manifest.dependencies = {
    "@engage-voice/client": `file:${tarballOf(tarballs, "@engage-voice/client")}`,
    "@engage-voice/auth": `file:${tarballOf(tarballs, "@engage-voice/auth")}`,
    ...options.dependencies,
  };
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [name, contents] of Object.entries(options.files ?? {})) {
    await writeFile(join(dir, name), contents);
  }
  // openapi-fetch and the like come from npm's cache, else from the registry. No retries and a short
  // timeout: a machine without the network (or, under turbo, without its CA certificates) fails here
  // in seconds, saying so, instead of waiting out npm's backoff.
  await runOk(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--no-package-lock",
      "--prefer-offline",
      "--ignore-scripts",
      "--fetch-retries=0",
      "--fetch-timeout=30000",
    ],
    { cwd: dir, env: consumerEnv({ npm_config_update_notifier: "false" }), timeoutMs: 180_000 },
  ).catch((error: Error) => {
    if (!NETWORK_FAILURE.test(error.message)) {
      throw error;
    }
    throw new Error(
      `npm could not fetch ${manifestPath}'s registry packages, and they are not all in its cache (no retries): run the matrix once on a machine with network access to fill npm's cache, then again here\n${error.message}`,
    );
  });
  return dir;
}
