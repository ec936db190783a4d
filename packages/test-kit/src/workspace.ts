// The public packages of the workspace, read from pnpm-workspace.yaml and each package.json: the
// runtime matrix packs each of them and the bench measures each or says why not, so a package
// added to the workspace cannot be left out of either unnoticed. One reader, so the two cannot
// disagree on what "public" means.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

export interface WorkspaceManifest {
  name: string;
  private?: boolean;
  types?: string;
  exports?: unknown;
}

export interface WorkspacePackage {
  name: string;
  /** Its folder, relative to the repository root. */
  dir: string;
  manifest: WorkspaceManifest;
}

/** The folders named by the top-level `packages:` list of `pnpm-workspace.yaml`, globs expanded. */
export async function workspaceDirs(root: string): Promise<string[]> {
  const workspace = await readFile(join(root, "pnpm-workspace.yaml"), "utf8");
  // The items of the top-level `packages:` list only, not those of the lists after it.
  const list = /^packages:\s*\n((?:[ \t]+-.*\n?|[ \t]*#.*\n?)*)/m.exec(workspace)?.[1] ?? "";
  const globs = [...list.matchAll(/^\s+-\s+["']?([\w./*-]+)["']?\s*$/gm)].map((m) => m[1] as string);
  const dirs: string[] = [];
  for (const glob of globs) {
    if (!glob.endsWith("/*")) {
      dirs.push(glob);
      continue;
    }
    const parent = glob.slice(0, -2);
    for (const entry of await readdir(join(root, parent), { withFileTypes: true })) {
      if (entry.isDirectory()) {
        dirs.push(`${parent}/${entry.name}`);
      }
    }
  }
  return dirs.sort();
}

/** Every workspace package without `"private": true`, sorted by folder. */
export async function publicPackages(root: string): Promise<WorkspacePackage[]> {
  const found: WorkspacePackage[] = [];
  for (const dir of await workspaceDirs(root)) {
    const file = join(root, dir, "package.json");
    if (!existsSync(file)) {
      continue;
    }
    const manifest = JSON.parse(await readFile(file, "utf8")) as WorkspaceManifest;
    if (manifest.private !== true) {
      found.push({ name: manifest.name, dir, manifest });
    }
  }
  return found;
}
