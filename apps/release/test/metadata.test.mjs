// Every public package's manifest is complete (see src/metadata.mjs for the rules), and the check
// itself reports what a package lacks.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { publicPackages, workspaceDirs } from "@engage-voice/test-kit/workspace";
import { metadataProblems } from "../src/metadata.mjs";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const rootManifest = JSON.parse(await readFile(join(root, "package.json"), "utf8"));

/** The names every workspace package depends on, in any kind of dependency. */
async function workspaceDependencies() {
  const names = new Set();
  for (const dir of await workspaceDirs(root)) {
    const manifest = JSON.parse(await readFile(join(root, dir, "package.json"), "utf8").catch(() => "{}"));
    for (const kind of ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"]) {
      for (const name of Object.keys(manifest[kind] ?? {})) {
        names.add(name);
      }
    }
  }
  return names;
}

test("every public package has its links, publish settings, engines, keywords, changelog, prepack, license and README", async () => {
  const packages = await publicPackages(root);
  assert.ok(packages.length >= 6, "the workspace's public packages were not found");
  const dependedOn = await workspaceDependencies();
  const problems = packages.flatMap(({ dir, manifest }) =>
    metadataProblems({ root, rootManifest, dir, manifest, dependedOn: dependedOn.has(manifest.name) }),
  );
  assert.deepEqual(problems, []);
});

test("a package missing a field is reported by name and field", async () => {
  const [{ dir, manifest }] = await publicPackages(root);
  const { homepage, publishConfig, sideEffects, ...rest } = manifest;
  const problems = metadataProblems({
    root,
    rootManifest,
    dir,
    manifest: {
      ...rest,
      name: "@engage-voice/unheard-of",
      types: "./dist/x.d.ts",
      bin: { x: "./dist/x.js" },
    },
    dependedOn: true,
  });
  assert.ok(problems.some((p) => p.includes("sideEffects must be false")));
  assert.ok(
    problems.some((p) => p.includes("README.md has no install command for @engage-voice/unheard-of")),
  );
  assert.ok(problems.some((p) => p.includes("homepage must be")));
  assert.ok(problems.some((p) => p.includes("publishConfig.access")));
  assert.ok(problems.some((p) => p.includes("bin ./dist/x.js must be a file committed")));
});

test("a library's README without a usage example, and a folder without LICENSE, are reported", () => {
  const problems = metadataProblems({
    root,
    rootManifest,
    dir: "apps/release",
    manifest: { name: "@engage-voice/release", types: "./x.d.ts", sideEffects: false },
  });
  assert.ok(problems.some((p) => p.includes("LICENSE is missing")));
  assert.ok(problems.some((p) => p.includes("README.md has no usage example")));
});
