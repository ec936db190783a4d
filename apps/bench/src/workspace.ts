// The public packages of the workspace, read from pnpm-workspace.yaml and each package.json, as
// apps/matrix reads them: the size section measures each of them or says why not, so a package
// added to the workspace cannot be left out unnoticed.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

export interface WorkspacePackage {
  name: string;
  /** Relative to the repository root. */
  dir: string;
}

/** Every workspace package without `"private": true`, sorted by directory. */
export async function publicPackages(root: string = repoRoot): Promise<WorkspacePackage[]> {
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
  const found: WorkspacePackage[] = [];
  for (const dir of dirs.sort()) {
    const file = join(root, dir, "package.json");
    if (!existsSync(file)) {
      continue;
    }
    const manifest = JSON.parse(await readFile(file, "utf8")) as { name: string; private?: boolean };
    if (manifest.private !== true) {
      found.push({ name: manifest.name, dir });
    }
  }
  return found;
}
