// The release notes users will read: `changeset version` on a scratch copy of the workspace, with the
// formatter of .changeset/config.json, writes each public package's CHANGELOG.md entry from the
// pending changesets alone: no commit hash, no "Updated dependencies" line. A package never released
// has one note, its first-release changeset (unreleased-notes.mjs).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { publicPackages } from "@engage-voice/test-kit/workspace";
import { releaseLine } from "../../../.changeset/changelog.mjs";
import { scratchWorkspace } from "../src/scratch.mjs";
import {
  changeWordingIn,
  parseChangeset,
  pendingChangesets,
  unreleasedNoteProblems,
} from "./unreleased-notes.mjs";

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
    if (manifest.version === "0.0.0") {
      const wording = changeWordingIn(entry);
      assert.equal(
        wording,
        undefined,
        `${name}'s first notes say "${wording}", as if there were an earlier release`,
      );
    }
  }
});

test("a package never released has one pending note, its first-release changeset", async () => {
  const problems = unreleasedNoteProblems(await publicPackages(root), await pendingChangesets(root));
  assert.ok(problems.length === 0, problems.join("\n"));
});

test("the rule names the fix for a second note and for wording of a change", () => {
  const packages = [
    { name: "@engage-voice/auth", manifest: { version: "0.0.0" } },
    { name: "@engage-voice/store-redis", manifest: { version: "0.0.0" } },
    { name: "@engage-voice/cli", manifest: { version: "1.2.0" } },
  ];
  const changesets = [
    parseChangeset("first-release-auth.md", '---\n"@engage-voice/auth": major\n---\n\nFirst release.\n'),
    parseChangeset(
      "auth-retries.md",
      '---\n"@engage-voice/auth": minor\n"@engage-voice/cli": patch\n---\n\n`rateLimitRetry` is gone: use `maxRetries`.\n',
    ),
    parseChangeset("cli-x.md", "---\n'@engage-voice/cli': patch\n---\n\n`--x` no longer prints `y`.\n"),
  ];
  assert.deepEqual(unreleasedNoteProblems(packages, changesets), [
    "fold .changeset/auth-retries.md into .changeset/first-release-auth.md: nothing has been released yet, so there is nothing to upgrade from",
    '.changeset/auth-retries.md says "is gone" of @engage-voice/auth, which has never been released: describe what the first release offers, not a change from an unreleased state',
    "@engage-voice/store-redis has never been released, and no .changeset/first-release-store-redis.md names it: write one that says what its first release offers",
  ]);
  assert.throws(() => parseChangeset("odd.md", "---\n@engage-voice/auth major\n---\n\nText.\n"), /odd\.md/);
  assert.throws(() => parseChangeset("bare.md", "Text only.\n"), /bare\.md has no front matter/);
});

test("wording of a change is looked for in the prose, not in code", () => {
  assert.equal(changeWordingIn("Every call now has a deadline."), "now");
  assert.equal(changeWordingIn("Before, a script could exit."), "Before,");
  assert.equal(changeWordingIn("**Upgrade:** use `maxRetries`."), "Upgrade");
  assert.equal(
    changeWordingIn("```sh\nnpm upgrade @engage-voice/cli\n```\n\n`control.now()` reads the clock."),
    undefined,
  );
  assert.equal(changeWordingIn("Renewal happens on demand, never before it is needed."), undefined);
});

test("a one-paragraph changeset is a bullet, a longer one a block of its own", () => {
  assert.equal(releaseLine("`x()` answers `y`,\nalways.\n"), "- `x()` answers `y`,\n  always.");
  const block = "Intro.\n\n- one\n- two";
  assert.equal(releaseLine(block), `\n\n${block}\n\n`);
});
