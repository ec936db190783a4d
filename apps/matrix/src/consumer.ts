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
  /** Third-party dependencies, name to exact version (`pinned()`: the served registry has them). */
  dependencies?: Record<string, string>;
}

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
  // Everything from the served registry, which has no uplink, through the run's own cache: nothing
  // from the network, nothing an earlier run left.
  await runOk("npm", ["install", "--no-package-lock", "--prefer-offline", "--ignore-scripts"], {
    cwd: dir,
    env: plainEnv({ npm_config_registry: published.url, npm_config_cache: published.cache }),
    timeoutMs: 180_000,
  });
  await expectReleased(dir, published);
  return dir;
}
