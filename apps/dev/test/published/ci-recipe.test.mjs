// The README's CI recipes, run exactly as printed, in a user's project: a scratch folder where plain npm
// installed spec, sandbox, client and auth by name from the release rehearsal's registry
// (`serveRegistry()` of @engage-voice/release: the packages as a release publishes them). Each recipe starts its server, waits
// for it, runs the project's own `npm test` (a token manager listing the accounts at the URL the recipe
// gives it) and stops the server. The GitHub Actions jobs must run those same lines.
//
// Prism is the one part not installed from a tarball: the recipe fetches it with npx, which needs the
// registry. Here an `npx` first on PATH hands `npx --yes @stoplight/prism-cli@5.16.0 …` to the
// workspace's own Prism 5.16.0 (the test kit's) and every other call to the real npx.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { plainEnv } from "@engage-voice/release/env";
import { serveRegistry } from "@engage-voice/release/registry";
import { freePort } from "@engage-voice/test-kit/servers";

const root = fileURLToPath(new URL("../../../..", import.meta.url));
const run = promisify(execFile);
const PRISM = "@stoplight/prism-cli@5.16.0";
const packages = ["spec", "sandbox", "client", "auth"].map((name) => `@engage-voice/${name}`);

let readme;
let project;
let bin;
let registry;

/** The lines between `<!-- name:start -->` and `<!-- name:end -->`, inside their code fence. */
function fenced(name, language) {
  const start = readme.indexOf(`<!-- ${name}:start -->`);
  const end = readme.indexOf(`<!-- ${name}:end -->`);
  assert.ok(start >= 0 && end > start, `README.md has no ${name} block`);
  const block = readme.slice(start, end);
  return block.slice(block.indexOf(`\`\`\`${language}\n`) + language.length + 4, block.lastIndexOf("```"));
}

/** The `run: |` script of the job step named `step` in the workflow, dedented. */
function stepScript(workflow, step) {
  const lines = workflow.split("\n");
  const at = lines.findIndex((line) => line.trim() === `- name: ${step}`);
  assert.ok(at >= 0, `the workflow has no step named ${step}`);
  const runAt = lines.findIndex((line, i) => i > at && line.trim() === "run: |");
  const body = [];
  for (const line of lines.slice(runAt + 1)) {
    if (line.trim() !== "" && !/^\s{10}/.test(line)) {
      break;
    }
    body.push(line.slice(10));
  }
  return `${body.join("\n").trimEnd()}\n`;
}

before(async () => {
  readme = await readFile(join(root, "README.md"), "utf8");
  project = await mkdtemp(join(tmpdir(), "ev-ci-recipe-"));
  registry = await serveRegistry();
  const version = (name) => registry.release.released.find((p) => p.name === name).version;
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({
      name: "a-users-project",
      private: true,
      type: "module",
      scripts: { test: "node test.mjs" },
      devDependencies: Object.fromEntries(packages.map((name) => [name, version(name)])),
    }),
  );
  // The user's tests: a token manager on the URL the recipe gives, with the sandbox's seeded parent
  // token (the mock takes any); what it saw goes where the test reads it.
  await writeFile(
    join(project, "test.mjs"),
    `import { writeFile } from "node:fs/promises";
import { createTokenManager } from "@engage-voice/auth";

const auth = createTokenManager({
  baseUrl: process.env.ENGAGE_VOICE_BASE_URL,
  rcAccessToken: "sandbox-rc-token-ada",
  logger: {},
});
const { data, response } = await auth.client().GET("/voice/api/v1/admin/accounts");
if (process.env.FAIL_TESTS) {
  process.exit(1);
}
if (response.status !== 200) {
  throw new Error(\`accounts answered \${response.status}\`);
}
await writeFile(process.env.SEEN, JSON.stringify(data));
`,
  );
  // A user's npm: the registry named by config, a cache nothing has filled yet.
  await run("npm", ["install", "--ignore-scripts"], {
    cwd: project,
    env: plainEnv({ npm_config_registry: registry.url, npm_config_cache: join(project, ".npm-cache") }),
    timeout: 180_000,
  });
  bin = join(project, "bin");
  await mkdir(bin);
  const { stdout: realNpx } = await run("bash", ["-c", "command -v npx"]);
  const kit = createRequire(fileURLToPath(import.meta.resolve("@engage-voice/test-kit/servers")));
  const prismEntry = kit.resolve("@stoplight/prism-cli/dist/index.js");
  await writeFile(
    join(bin, "npx"),
    `#!/usr/bin/env bash
if [ "$1" = --yes ] && [ "$2" = ${PRISM} ]; then shift 2; exec node ${JSON.stringify(prismEntry)} "$@"; fi
exec ${JSON.stringify(realNpx.trim())} "$@"
`,
  );
  await chmod(join(bin, "npx"), 0o755);
});

after(async () => {
  await registry?.stop();
  if (project) {
    await rm(project, { recursive: true, force: true });
  }
});

/** Runs a recipe as printed; rejects with its log when it fails. */
async function runRecipe(script, env, logFile = "sandbox.log") {
  await run("bash", ["-e", "-c", script], {
    cwd: project,
    // As in a CI job, `node` is the real binary, first on PATH after the npx above.
    env: { ...process.env, ...env, PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH}` },
    timeout: 240_000, // beyond the recipe's own two minutes for Prism to answer
  }).catch(async (error) => {
    const log = await readFile(join(project, logFile), "utf8").catch(() => "");
    throw Object.assign(new Error(`${error.message}\n${log}`), { code: error.code });
  });
}

/** Whether something still answers on the port, given a few seconds to finish stopping. */
async function stillAnswers(port) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const answer = await fetch(`http://127.0.0.1:${port}/`).catch((error) => error);
    if (answer instanceof Error) {
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return true;
}

test("the Prism recipe mocks the published document, runs the project's tests against it and stops it", async () => {
  const script = fenced("ci-recipe-mock", "sh");
  assert.match(script, /npm test/);
  assert.match(script, /node_modules\/@engage-voice\/spec\/dist\/openapi\.json/);
  assert.match(script, new RegExp(`npx --yes ${PRISM} mock`));
  const port = await freePort();
  const seen = join(project, "seen-mock.json");
  await runRecipe(script, { MOCK_PORT: String(port), SEEN: seen }, "mock.log");
  const accounts = JSON.parse(await readFile(seen, "utf8"));
  assert.ok(Array.isArray(accounts) && accounts.length > 0);
  assert.equal(await stillAnswers(port), false, "the mock still answers after the recipe ended");
});

test("the sandbox recipe runs the package's bin, the project's tests against it, and stops it", async () => {
  const script = fenced("ci-recipe-sandbox", "sh");
  assert.match(script, /npm test/);
  assert.match(script, /npx --no-install engage-voice-sandbox --port-main/);
  const [main, legacy] = [await freePort(), await freePort()];
  const seen = join(project, "seen-sandbox.json");
  await runRecipe(
    script,
    { SANDBOX_PORT: String(main), SANDBOX_LEGACY_PORT: String(legacy), SEEN: seen },
    "sandbox.log",
  );
  const accounts = JSON.parse(await readFile(seen, "utf8"));
  // The seeded sub-accounts: the sandbox answered, not examples.
  assert.ok(accounts.some((account) => account.accountName === "Sandbox Sales"));
  assert.equal(
    await stillAnswers(main),
    false,
    "the sandbox's main host still answers after the recipe ended",
  );
  assert.equal(
    await stillAnswers(legacy),
    false,
    "the sandbox's legacy host still answers after the recipe ended",
  );
});

test("when the project's tests fail, the sandbox recipe fails with them and still stops the sandbox", async () => {
  const script = fenced("ci-recipe-sandbox", "sh");
  const [main, legacy] = [await freePort(), await freePort()];
  const error = await runRecipe(script, {
    SANDBOX_PORT: String(main),
    SANDBOX_LEGACY_PORT: String(legacy),
    FAIL_TESTS: "1",
  }).catch((e) => e);
  assert.ok(error instanceof Error, "the recipe passed although the tests failed");
  assert.equal(error.code, 1);
  assert.equal(await stillAnswers(main), false, "the sandbox still answers after the recipe failed");
});

test("the GitHub Actions jobs run the recipes' lines unchanged", () => {
  const workflow = fenced("ci-workflow", "yaml");
  assert.equal(stepScript(workflow, "Tests against the contract mock"), fenced("ci-recipe-mock", "sh"));
  assert.equal(stepScript(workflow, "Tests against the sandbox"), fenced("ci-recipe-sandbox", "sh"));
  assert.doesNotMatch(workflow, /the lines above/);
});
