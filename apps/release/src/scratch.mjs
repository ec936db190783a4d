// A scratch copy of the workspace's release inputs: the root manifest and workspace file, the
// changesets and every public package (its files as git sees them, plus its build output), with the
// workspace's node_modules linked in so the packages' own scripts (the spec's bundle) run. The
// release steps run there exactly as in a release, and leave the checkout untouched.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { publicPackages } from "@engage-voice/test-kit/workspace";

const run = promisify(execFile);
const ROOT_FILES = ["package.json", "pnpm-workspace.yaml", ".npmrc", "LICENSE", ".changeset", "scripts"];

/** Copies the release inputs of `root` into the empty folder `into`; answers the public packages. */
export async function scratchWorkspace(root, into) {
  const packages = await publicPackages(root);
  const { stdout } = await run(
    "git",
    [
      "ls-files",
      "-z",
      "--cached",
      "--others",
      "--exclude-standard",
      "--",
      ...ROOT_FILES,
      ...packages.map((p) => p.dir),
    ],
    { cwd: root, maxBuffer: 64 * 1024 * 1024 },
  );
  for (const file of stdout.split("\0").filter(Boolean)) {
    if (existsSync(join(root, file))) {
      await mkdir(dirname(join(into, file)), { recursive: true });
      await cp(join(root, file), join(into, file));
    }
  }
  const copies = new Map(packages.map((p) => [p.name, join(into, p.dir)]));
  for (const dir of [".", ...packages.map((p) => p.dir)]) {
    if (dir !== "." && existsSync(join(root, dir, "dist"))) {
      await cp(join(root, dir, "dist"), join(into, dir, "dist"), { recursive: true });
    }
    await linkModules(join(root, dir, "node_modules"), join(into, dir, "node_modules"), copies);
  }
  return packages;
}

/**
 * A node_modules of links into the workspace's, except that a public package links to its scratch
 * copy: pnpm rewrites `workspace:` ranges at publish from the version of the linked package, which
 * must be the one `changeset version` just wrote there.
 */
async function linkModules(from, to, copies) {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const scoped = entry.name.startsWith("@") && entry.isDirectory();
    const names = scoped
      ? (await readdir(join(from, entry.name))).map((n) => `${entry.name}/${n}`)
      : [entry.name];
    if (scoped) {
      await mkdir(join(to, entry.name), { recursive: true });
    }
    for (const name of names) {
      await symlink(copies.get(name) ?? join(from, name), join(to, name));
    }
  }
}
