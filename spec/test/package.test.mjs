// What `@engage-voice/spec` publishes: the bundled document and one per host, each in two forms, at
// the package's version, and the Markdown made from it (llms.txt, a page per operation).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { operationsOf } from "../scripts/markdown.mjs";
import { HOSTS } from "../scripts/per-host.mjs";

const spec = fileURLToPath(new URL("..", import.meta.url));
const read = async (path) => readFile(new URL(`../${path}`, import.meta.url), "utf8");

const documents = ["openapi", ...Object.keys(HOSTS).map((host) => `openapi.${host}`)];
const operationIds = operationsOf(JSON.parse(await read("dist/openapi.json"))).map(
  ({ operation }) => operation.operationId,
);

test("info.version of every bundled document, in both forms, is the package's version", async () => {
  const { version } = JSON.parse(await read("package.json"));
  for (const name of documents) {
    assert.equal(JSON.parse(await read(`dist/${name}.json`)).info.version, version, name);
    assert.match(
      await read(`dist/${name}.yaml`),
      new RegExp(`^info:\\n(?: {2}.*\\n)*? {2}version: ${version.replace(/\./g, "\\.")}$`, "m"),
      name,
    );
  }
});

test("the source document names the package's version too: one number for one release", async () => {
  const { version } = JSON.parse(await read("package.json"));
  assert.match(
    await read("openapi.yaml"),
    new RegExp(`^info:\\n(?: {2}.*\\n)*? {2}version: ${version.replace(/\./g, "\\.")}$`, "m"),
  );
});

test("the tarball holds the bundled document and nothing a user does not need", async () => {
  const { stdout } = await promisify(execFile)(
    "npm",
    ["pack", "--dry-run", "--json", "--ignore-scripts", "--offline"],
    {
      cwd: spec,
    },
  );
  const [{ files }] = JSON.parse(stdout);
  assert.deepEqual(
    files.map((file) => file.path).sort(),
    [
      "CHANGELOG.md",
      "LICENSE",
      "README.md",
      ...documents.flatMap((name) => [`dist/${name}.json`, `dist/${name}.yaml`]),
      "dist/llms.txt",
      ...operationIds.map((id) => `dist/operations/${id}.md`),
      "package.json",
    ].sort(),
  );
});

test("a packed or versioned document carries the package's version", async () => {
  const { scripts } = JSON.parse(await read("package.json"));
  // npm and pnpm run prepack before they pack or publish: the tarball's dist/ is bundled and stamped.
  assert.match(scripts.prepack, /\bbundle\b/);
  const root = JSON.parse(await read("../package.json"));
  const steps = root.scripts["version-packages"].split("&&").map((step) => step.trim());
  // The bundle reads the version changeset just wrote, and the baseline is the document released.
  assert.deepEqual(steps, [
    "changeset version",
    "pnpm --filter @engage-voice/spec bundle",
    "pnpm --filter @engage-voice/spec release:record",
  ]);
});
