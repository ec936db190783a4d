// The public packages as the release rehearsal published them: the turbo task
// `@engage-voice/release#registry` left them in a Verdaccio storage, and `serveRegistry()` serves a
// copy on 127.0.0.1. The matrix installs them from there by name, as users install them from npm,
// instead of packing tarballs of its own; the third-party packages the consumer projects add (msw,
// expect-type, @types/node 20) are published into that copy from the workspace's install, so every
// install is offline.
import { readFileSync } from "node:fs";
import { lstat, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type ServedRegistry, serveRegistry } from "@engage-voice/release/registry";
import { seedThirdParty } from "@engage-voice/release/seed";
import { publicPackages as readPublic } from "@engage-voice/test-kit/workspace";
import { appDir, repoRoot } from "./paths.ts";

/**
 * The third-party packages the consumer projects add, by the name this package's devDependencies pin
 * them under (an alias for a second version beside the workspace's own).
 */
const THIRD_PARTY = ["msw", "expect-type", "@types/node-20"] as const;
const devDependencies = (
  JSON.parse(readFileSync(join(appDir, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  }
).devDependencies;

/** `{ name: version }` of a third-party package as a consumer project depends on it. */
export function pinned(installedAs: (typeof THIRD_PARTY)[number]): Record<string, string> {
  const spec = devDependencies[installedAs] ?? "";
  const alias = /^npm:(@?[^@]+)@(.+)$/.exec(spec);
  return alias ? { [alias[1] as string]: alias[2] as string } : { [installedAs]: spec };
}

/** A workspace package that is published: one without `"private": true`. */
export interface PublicPackage {
  name: string;
  /** Whether it ships code with types, not only data. */
  code: boolean;
  /** Whether its code is ESM only (no `require` condition): a tool for tests, not a library. */
  esmOnly: boolean;
}

/**
 * The public packages, read from the workspace (`pnpm-workspace.yaml`'s folders) by the test kit's
 * reader, so the cells can be listed before any registry runs; `openRegistry()` checks that the
 * registry holds exactly these.
 */
export async function publicPackages(): Promise<PublicPackage[]> {
  return (await readPublic(repoRoot)).map(({ name, manifest }) => ({
    name,
    code: typeof manifest.types === "string",
    esmOnly: !JSON.stringify(manifest.exports ?? {}).includes('"require"'),
  }));
}

export interface Published {
  /** The served registry's URL, ending in `/`. */
  url: string;
  /** npm's cache for this run's installs: new, so nothing an earlier run cached is used. */
  cache: string;
  /** The version the rehearsal released each public package at, by name. */
  versions: Record<string, string>;
  /** The published tarball of `name`, downloaded from the registry into the run's folder. */
  tarball(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** The released version of `name`, or an error naming the package the registry does not hold. */
export function versionOf(published: Published, name: string): string {
  const version = published.versions[name];
  if (!version) {
    throw new Error(`${name} is not in the rehearsed registry: it is not a public workspace package`);
  }
  return version;
}

/**
 * Serves the rehearsed registry. Refuses one whose packages are not the workspace's public packages
 * (left by a run before a package was added or made private), saying how to rebuild it.
 */
export async function openRegistry(work: string): Promise<Published> {
  const registry: ServedRegistry = await serveRegistry({ publisher: true });
  const versions = Object.fromEntries(registry.release.released.map((p) => [p.name, p.version]));
  const expected = (await publicPackages()).map((p) => p.name).sort();
  const held = Object.keys(versions).sort();
  if (JSON.stringify(expected) !== JSON.stringify(held)) {
    await registry.stop();
    throw new Error(
      `the rehearsed registry holds ${held.join(", ")}, the workspace publishes ${expected.join(", ")}: rebuild it with pnpm exec turbo run registry --filter=@engage-voice/release`,
    );
  }
  const matrix = {
    name: "@engage-voice/matrix",
    dir: "apps/matrix",
    manifest: { dependencies: Object.fromEntries(THIRD_PARTY.map((name) => [name, devDependencies[name]])) },
  };
  await seedThirdParty(registry, repoRoot, [matrix], join(work, "seed"), registry.release.seeded).catch(
    async (error: Error) => {
      await registry.stop();
      throw error;
    },
  );
  const tarballs = join(work, "tarballs");
  // One download per package, shared by the cells that read it: two cells of a package run side by
  // side, and a second download rewriting the file while the first cell reads it cut that read short.
  const downloads = new Map<string, Promise<string>>();
  async function download(name: string): Promise<string> {
    const version = versionOf(published, name);
    const packument = (await (await fetch(`${registry.url}${name.replace("/", "%2f")}`)).json()) as {
      versions?: Record<string, { dist: { tarball: string } }>;
    };
    const dist = packument.versions?.[version]?.dist;
    if (!dist) {
      throw new Error(`the registry at ${registry.url} has no ${name}@${version}`);
    }
    const answer = await fetch(dist.tarball);
    if (!answer.ok) {
      throw new Error(`${dist.tarball} answered ${answer.status}`);
    }
    await mkdir(tarballs, { recursive: true });
    const file = join(tarballs, `${name.replace("/", "-")}-${version}.tgz`);
    await writeFile(file, Buffer.from(await answer.arrayBuffer()));
    return file;
  }
  const published: Published = {
    url: registry.url,
    cache: join(work, "npm-cache"),
    versions,
    tarball(name) {
      let file = downloads.get(name);
      if (!file) {
        file = download(name);
        downloads.set(name, file);
      }
      return file;
    },
    stop: () => registry.stop(),
  };
  return published;
}

/**
 * Checks that every package of ours installed in the project `dir` is the registry's release: a
 * folder npm unpacked (not a link into the workspace) at the released version.
 */
export async function expectReleased(dir: string, published: Published): Promise<string[]> {
  const scope = join(dir, "node_modules", "@engage-voice");
  const names = await readdir(scope);
  const problems: string[] = [];
  for (const short of names) {
    const name = `@engage-voice/${short}`;
    const at = join(scope, short);
    if ((await lstat(at)).isSymbolicLink()) {
      problems.push(`${name} is a link, not the published package`);
      continue;
    }
    const { version } = JSON.parse(await readFile(join(at, "package.json"), "utf8")) as { version: string };
    if (version !== published.versions[name]) {
      problems.push(`${name}@${version} is installed, the registry released ${published.versions[name]}`);
    }
  }
  if (problems.length > 0) {
    throw new Error(`${dir} did not get the rehearsed release:\n${problems.join("\n")}`);
  }
  return names.map((short) => `@engage-voice/${short}@${published.versions[`@engage-voice/${short}`]}`);
}
