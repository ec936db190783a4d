// A command a user copies must never run a stranger's package: `npx NAME` looks an uninstalled,
// unscoped NAME up on the registry, where anyone may publish it. Every `npx` of one of our bins in
// the documentation says `--no-install`, so it runs only the bin the user's install put there.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { publicPackages } from "@engage-voice/test-kit/workspace";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));

/** The bins of the public packages: commands whose names are not ours on the registry. */
async function ourBins() {
  return (await publicPackages(root)).flatMap(({ manifest }) => Object.keys(manifest.bin ?? {}));
}

/** Each `npx` of `bins` that would install a missing package, as `file:line: text`. */
export function unsafeNpx(file, text, bins) {
  const found = [];
  text.split("\n").forEach((line, index) => {
    for (const match of line.matchAll(/\bnpx((?:\s+--?[\w-]+)*)\s+([@\w][\w./@-]*)/g)) {
      const [, flags, name] = match;
      if (bins.includes(name) && !/--no-install|--no\b/.test(flags)) {
        found.push(`${file}:${index + 1}: ${line.trim()}`);
      }
    }
  });
  return found;
}

test("the documentation runs our bins with npx --no-install only", async () => {
  const bins = await ourBins();
  assert.ok(bins.includes("engage-voice-sandbox") && bins.includes("engage-voice"), `bins found: ${bins}`);
  const { stdout } = await run("git", ["ls-files", "*.md", "*.yml", "*.yaml", "*.sh"], { cwd: root });
  const found = [];
  for (const file of stdout.split("\n").filter(Boolean)) {
    found.push(...unsafeNpx(file, await readFile(join(root, file), "utf8"), bins));
  }
  assert.deepEqual(found, []);
});

test("the check finds a bare npx of our bin and passes the safe forms", () => {
  const bins = ["engage-voice-sandbox"];
  assert.equal(unsafeNpx("a.md", "setsid npx engage-voice-sandbox --port-main 1", bins).length, 1);
  assert.equal(unsafeNpx("a.md", "npx --yes engage-voice-sandbox", bins).length, 1);
  assert.deepEqual(unsafeNpx("a.md", "npx --no-install engage-voice-sandbox --control", bins), []);
  assert.deepEqual(unsafeNpx("a.md", "npx --yes @stoplight/prism-cli@5.16.0 mock", bins), []);
});
