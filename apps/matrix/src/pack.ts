// Packs each public package as a registry would serve it. `pnpm pack` (not `npm pack`) because it
// rewrites `workspace:*` to the real versions, which is what a user's npm then resolves.
import { existsSync } from "node:fs";
import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { artifactsDir, repoRoot } from "./paths.ts";
import { runOk } from "./run.ts";

export const publicPackages = {
  client: "packages/client",
  auth: "packages/auth",
} as const;

export type PackageKey = keyof typeof publicPackages;
export type Tarballs = Record<PackageKey, string>;

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
  const { filename } = JSON.parse(stdout) as { filename: string };
  return filename;
}

/** Packs every public package into `.artifacts/tarballs/`, replacing what an earlier run left. */
export async function packAll(): Promise<Tarballs> {
  await rm(tarballDir, { recursive: true, force: true });
  await mkdir(tarballDir, { recursive: true });
  return {
    client: await pack(publicPackages.client),
    auth: await pack(publicPackages.auth),
  };
}

if (import.meta.main) {
  for (const [key, file] of Object.entries(await packAll())) console.log(`${key}: ${file}`);
}
