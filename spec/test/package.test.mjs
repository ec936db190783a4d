// What `@engage-voice/spec` publishes: the bundled document in two forms, at the package's version.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const spec = fileURLToPath(new URL("..", import.meta.url));
const read = async (path) => readFile(new URL(`../${path}`, import.meta.url), "utf8");

test("info.version of both bundled forms is the package's version", async () => {
  const { version } = JSON.parse(await read("package.json"));
  assert.equal(JSON.parse(await read("dist/openapi.json")).info.version, version);
  assert.match(
    await read("dist/openapi.yaml"),
    new RegExp(`^info:\\n(?: {2}.*\\n)*? {2}version: ${version.replace(/\./g, "\\.")}$`, "m"),
  );
});

test("the tarball holds the bundled document and nothing a user does not need", async () => {
  const { stdout } = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: spec,
  });
  const [{ files }] = JSON.parse(stdout);
  assert.deepEqual(files.map((file) => file.path).sort(), [
    "LICENSE",
    "README.md",
    "dist/openapi.json",
    "dist/openapi.yaml",
    "package.json",
  ]);
});
