// Packs each public package as a registry would serve it. `pnpm pack` (not `npm pack`) because it
// rewrites `workspace:*` to the real versions, which is what a user's npm then resolves.
import { existsSync } from "node:fs";
import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { publicPackages as readPublic } from "@engage-voice/test-kit/workspace";
import { artifactsDir, repoRoot } from "./paths.ts";
import { runOk } from "./run.ts";

/** A workspace package that is published: one without `"private": true`. */
export interface PublicPackage {
  name: string;
  /** Its folder, relative to the repository root. */
  dir: string;
  /** Whether it ships code with types, not only data. */
  code: boolean;
  /** Whether its code is ESM only (no `require` condition): a tool for tests, not a library. */
  esmOnly: boolean;
}

/**
 * The public packages, read from the workspace (`pnpm-workspace.yaml`'s folders) by the test kit's
 * reader: a package added there is packed and checked without another list to edit.
 */
export async function publicPackages(): Promise<PublicPackage[]> {
  return (await readPublic(repoRoot)).map(({ name, dir, manifest }) => ({
    name,
    dir,
    code: typeof manifest.types === "string",
    esmOnly: !JSON.stringify(manifest.exports ?? {}).includes('"require"'),
  }));
}

/** The tarball of each public package, by package name. */
export type Tarballs = Record<string, string>;

export const tarballDir = join(artifactsDir, "tarballs");

async function pack(dir: string): Promise<string> {
  const packageDir = join(repoRoot, dir);
  const manifest = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as { name: string };
  if (!existsSync(join(packageDir, "dist"))) {
    throw new Error(
      `${manifest.name} has no dist/: build it first (pnpm --filter ${manifest.name} run build)`,
    );
  }
  const { stdout } = await runOk("pnpm", ["pack", "--json", "--pack-destination", tarballDir], {
    cwd: packageDir,
  });
  // A package's prepack script (the spec's bundle) prints to the same stdout before the JSON does.
  const json = stdout.slice(Math.max(0, stdout.search(/^\{$/m)));
  const { filename } = JSON.parse(json) as { filename: string };
  return filename;
}

/** Packs every public package into `.artifacts/tarballs/`, replacing what an earlier run left. */
export async function packAll(): Promise<Tarballs> {
  await rm(tarballDir, { recursive: true, force: true });
  await mkdir(tarballDir, { recursive: true });
  const tarballs: Tarballs = {};
  for (const { name, dir } of await publicPackages()) {
    tarballs[name] = await pack(dir);
  }
  return tarballs;
}

/** The tarball of `name`, or a clear error when the workspace has no such public package. */
export function tarballOf(tarballs: Tarballs, name: string): string {
  const file = tarballs[name];
  if (!file) {
    throw new Error(`${name} is not a public workspace package: nothing was packed for it`);
  }
  return file;
}

if (import.meta.main) {
  for (const [key, file] of Object.entries(await packAll())) {
    console.log(`${key}: ${file}`);
  }
}
