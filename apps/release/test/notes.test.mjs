// The release notes users will read: `changeset version` on a scratch copy of the workspace, with the
// formatter of .changeset/config.json, writes each public package's CHANGELOG.md entry from the
// pending changesets alone: no commit hash, no "Updated dependencies" line.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { releaseLine } from "../../../.changeset/changelog.mjs";
import { scratchWorkspace } from "../src/scratch.mjs";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));
const scratch = await mkdtemp(join(tmpdir(), "ev-notes-"));

after(() => rm(scratch, { recursive: true, force: true }));

test("changeset version writes user-facing notes into every package it releases", async () => {
  const packages = await scratchWorkspace(root, scratch);
  await run(join(root, "node_modules", ".bin", "changeset"), ["version"], { cwd: scratch });
  for (const { name, dir, manifest } of packages) {
    const versioned = JSON.parse(await readFile(join(scratch, dir, "package.json"), "utf8"));
    if (manifest.version === "0.0.0") {
      // Unreleased until now: the first release is 1.0.0 or later, so `^` ranges (the store's peer
      // range on auth) accept every compatible version and a major means a breaking change.
      assert.ok(
        Number(versioned.version.split(".")[0]) >= 1,
        `${name} would be released as ${versioned.version}`,
      );
    }
    if (versioned.version === manifest.version) {
      continue;
    }
    const changelog = await readFile(join(scratch, dir, "CHANGELOG.md"), "utf8");
    const entry = changelog.split(`## ${versioned.version}\n`)[1]?.split(/^## /m)[0] ?? "";
    assert.ok(entry.trim().length > 0, `${name}'s CHANGELOG.md has no entry for ${versioned.version}`);
    assert.doesNotMatch(entry, /Updated dependencies/, `${name}'s notes list dependency updates`);
    assert.doesNotMatch(entry, /\b[0-9a-f]{7,40}\b: /, `${name}'s notes carry a commit hash`);
    assert.doesNotMatch(entry, /No changes in this release/, `${name} is released with no note of its own`);
  }
});

test("a one-paragraph changeset is a bullet, a longer one a block of its own", () => {
  assert.equal(releaseLine("`x()` answers `y`,\nalways.\n"), "- `x()` answers `y`,\n  always.");
  const block = "Intro.\n\n- one\n- two";
  assert.equal(releaseLine(block), `\n\n${block}\n\n`);
});
