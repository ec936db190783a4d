// The third-party packages the public packages need at run time (openapi-fetch and its helper
// types, hono, @hono/node-server, …), taken from the workspace's pnpm store as installed and
// published into the rehearsal's registry, so that installing from it fetches nothing from the
// internet. The set is computed from the manifests, so a new dependency is seeded without a list.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { publishTarball } from "./registry.mjs";

const run = promisify(execFile);

/** Where `name` resolves from the package installed at `dir` (pnpm's layout: siblings, then up). */
async function installedDir(dir, name) {
  let at = dir;
  for (;;) {
    const candidate = join(at, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) {
      return realpath(candidate);
    }
    const up = join(at, "..");
    if (up === at) {
      throw new Error(`${name}, needed by ${dir}, is not installed in the workspace: run pnpm install`);
    }
    at = up;
  }
}

/** The packages a manifest makes npm install: dependencies and required peer dependencies. */
function installs(manifest) {
  const optionalPeers = Object.keys(manifest.peerDependenciesMeta ?? {}).filter(
    (name) => manifest.peerDependenciesMeta[name]?.optional,
  );
  return [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => !optionalPeers.includes(name)),
  ];
}

/**
 * Publishes into `registry` every package outside the workspace that installing `packages` (the
 * public workspace packages, `{ name, dir, manifest }`, `dir` from the root) pulls in, but those of
 * `skip` (`name@version`, already there); answers their `name@version`.
 */
export async function seedThirdParty(registry, root, packages, scratch, skip = []) {
  const ours = new Set(packages.map((p) => p.name));
  const queue = [];
  for (const { dir, manifest } of packages) {
    for (const name of installs(manifest).filter((n) => !ours.has(n))) {
      queue.push([join(root, dir), name]);
    }
  }
  const seeded = new Map();
  await mkdir(scratch, { recursive: true });
  while (queue.length > 0) {
    const [from, name] = queue.shift();
    const dir = await installedDir(from, name);
    if ([...seeded.values()].includes(dir)) {
      continue;
    }
    const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    const key = `${manifest.name}@${manifest.version}`;
    // pnpm keeps one folder per set of peers; the registry takes one copy of each version.
    if (skip.includes(key) || seeded.has(key)) {
      continue;
    }
    seeded.set(key, dir);
    // The installed folder holds exactly the files the package was published with (pnpm links its
    // dependencies beside it, not inside), so it is packed as it is, under npm's `package/` root.
    const tarball = join(scratch, `${manifest.name.replace("/", "-")}-${manifest.version}.tgz`);
    await run("tar", [
      "-czf",
      tarball,
      "-C",
      dir,
      "--transform",
      "s,^\\.,package,",
      "--owner=0",
      "--group=0",
      // pnpm's store hard-links identical files; npm's unpacking skips link entries, so each is a file.
      "--hard-dereference",
      ".",
    ]);
    await publishTarball(registry, tarball, manifest);
    for (const dependency of installs(manifest)) {
      queue.push([dir, dependency]);
    }
  }
  return [...seeded.keys()].sort();
}
