// The release, rehearsed on a real registry: Verdaccio on 127.0.0.1 (no uplink) received the public
// packages exactly as a release publishes them (`pnpm version-packages`, then `changeset publish`,
// on a scratch copy), with their third-party dependencies seeded from the pnpm store: the turbo task
// `registry` (src/build-registry.mjs) did that, and this test serves what it left. A scratch project
// installs them by name with plain npm, a fresh cache and the README's install lines, and uses them:
// the auth scenario against the sandbox it installed, both bins through `npx --no-install`, and
// `npm sbom`.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startProcess } from "@engage-voice/test-kit/processes";
import { freePort } from "@engage-voice/test-kit/servers";
import { plainEnv } from "../src/env.mjs";
import { REGISTRY_ARTIFACT, serveRegistry } from "../src/registry.mjs";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));
const scratch = await mkdtemp(join(tmpdir(), "ev-release-"));
const project = join(scratch, "project");
let registry;
let release;
let userEnv;

/** The `npm install` lines of the README's install block. */
async function readmeInstallLines() {
  const readme = await readFile(join(root, "README.md"), "utf8");
  const block = /<!-- install:start -->\n```sh\n([\s\S]*?)```\n<!-- install:end -->/.exec(readme)?.[1];
  assert.ok(block, "README.md has no install block");
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
}

before(async () => {
  registry = await serveRegistry();
  release = registry.release;
  await mkdir(project);
  await writeFile(join(project, ".npmrc"), "");
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "a-users-project", version: "1.0.0", private: true, type: "module" }),
  );
  // A user's machine: plain npm, the registry named by config, a cache nothing has filled yet.
  userEnv = plainEnv({
    npm_config_registry: registry.url,
    npm_config_cache: join(scratch, "npm-cache"),
    npm_config_userconfig: join(project, ".npmrc"),
  });
  for (const line of await readmeInstallLines()) {
    const [command, ...args] = line.split(/\s+/);
    assert.equal(command, "npm", `the README's install line is not an npm command: ${line}`);
    await run(command, args, { cwd: project, env: userEnv, timeout: 120_000 });
  }
});

after(async () => {
  await registry?.stop();
  await rm(scratch, { recursive: true, force: true });
});

test("changeset publish put every public package in the registry, workspace ranges rewritten", async () => {
  for (const { name, version } of release.released) {
    const packument = await (await fetch(`${registry.url}${name.replace("/", "%2f")}`)).json();
    assert.equal(
      packument["dist-tags"]?.latest,
      version,
      `${name}@${version} is not the latest in the registry`,
    );
    const published = packument.versions[version];
    for (const kind of ["dependencies", "peerDependencies"]) {
      for (const [dependency, range] of Object.entries(published[kind] ?? {})) {
        assert.doesNotMatch(range, /^workspace:/, `${name} was published with ${dependency}@${range}`);
      }
    }
  }
});

test("the project installed our packages and the seeded ones only, all from the local registry", async () => {
  const lock = JSON.parse(await readFile(join(project, "package-lock.json"), "utf8"));
  const installed = Object.entries(lock.packages).filter(([path]) => path !== "");
  for (const [path, entry] of installed) {
    assert.ok(entry.resolved?.startsWith(registry.url), `${path} came from ${entry.resolved}`);
  }
  const names = new Set(installed.map(([path]) => path.replace(/^.*node_modules\//, "")));
  for (const { name } of release.released) {
    assert.ok(names.has(name), `${name} was not installed by the README's lines`);
  }
});

test("every seeded package was installed whole: no file of its tarball missing", async () => {
  for (const seeded of release.seeded) {
    const name = seeded.replace(/@[^@]+$/, "");
    const version = seeded.slice(name.length + 1);
    const tarball = join(REGISTRY_ARTIFACT, "storage", name, `${name.split("/").at(-1)}-${version}.tgz`);
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout.split("\n").filter((file) => file !== "" && !file.endsWith("/"));
    const missing = files.filter(
      (file) => !existsSync(join(project, "node_modules", name, file.replace(/^package\//, ""))),
    );
    assert.deepEqual(missing, [], `${seeded} was installed without these files of its tarball`);
  }
});

test("the auth scenario runs on the installed packages against the sandbox they installed", async () => {
  // Exchange, a call, the sandbox's clock moved past the token's expiry (the manager reads the same
  // clock), a call that renews first; and every other package loads.
  await writeFile(
    join(project, "scenario.mjs"),
    `import { createTokenManager } from "@engage-voice/auth";
import { redisStore } from "@engage-voice/store-redis";
import { startSandbox } from "@engage-voice/sandbox";
import { readFile } from "node:fs/promises";

const sandbox = await startSandbox({ control: { enabled: true } });
try {
  const auth = createTokenManager({
    baseUrl: sandbox.mainUrl,
    rcAccessToken: sandbox.seed.parentTokens[0].token,
    clock: { now: sandbox.control.now },
    logger: {},
  });
  const client = auth.client();
  const first = await client.GET("/voice/api/v1/admin/accounts");
  const before = await auth.getAccessToken();
  sandbox.control.advance(sandbox.settings.tokenLifetimeMs + 1_000);
  const second = await client.GET("/voice/api/v1/admin/accounts");
  const renewed = (await auth.getAccessToken()) !== before;
  const contract = JSON.parse(await readFile(new URL(import.meta.resolve("@engage-voice/spec/openapi.json")), "utf8"));
  console.log(JSON.stringify({
    statuses: [first.response.status, second.response.status],
    accounts: first.data.length,
    renewed,
    specVersion: contract.info.version,
    redisStore: typeof redisStore,
  }));
} finally {
  await sandbox.stop();
}
`,
  );
  const { stdout } = await run("node", ["scenario.mjs"], { cwd: project, env: userEnv, timeout: 60_000 });
  const result = JSON.parse(stdout);
  const spec = release.released.find((p) => p.name === "@engage-voice/spec");
  assert.deepEqual(result.statuses, [200, 200]);
  assert.ok(result.accounts > 0);
  assert.equal(result.renewed, true, "the token was not renewed after the sandbox's clock passed its expiry");
  assert.equal(result.specVersion, spec.version, "the published document does not name its release");
  assert.equal(result.redisStore, "function");
});

test("npx --no-install engage-voice-sandbox runs the installed bin until its process group is stopped", async () => {
  const [main, legacy] = [await freePort(), await freePort()];
  const bin = startProcess(
    "npx",
    ["--no-install", "engage-voice-sandbox", "--port-main", `${main}`, "--port-legacy", `${legacy}`],
    { cwd: project, env: userEnv },
  );
  try {
    await bin.waitForOutput(/Ctrl-C stops the sandbox\./, 60_000).catch((error) => {
      assert.fail(`the bin printed no readiness line (${error.message}):\n${bin.output.stderr}`);
    });
    const answer = await fetch(`http://127.0.0.1:${main}/voice/api/v1/admin/accounts`);
    assert.equal(answer.status, 401, "the sandbox's main host did not answer an unauthenticated call");
  } finally {
    await bin.stop("SIGTERM", 15_000);
  }
});

test("npx --no-install engage-voice --version prints the version just released", async () => {
  const cli = release.released.find((p) => p.name === "@engage-voice/cli");
  const { stdout } = await run("npx", ["--no-install", "engage-voice", "--version"], {
    cwd: project,
    env: userEnv,
  });
  assert.equal(stdout, `${cli.version}\n`);
});

test("npm sbom lists every installed package, offline", async () => {
  const { stdout } = await run("npm", ["sbom", "--sbom-format", "cyclonedx"], { cwd: project, env: userEnv });
  const sbom = JSON.parse(stdout);
  const components = new Set(sbom.components.map((c) => (c.group ? `${c.group}/${c.name}` : c.name)));
  for (const { name } of release.released) {
    assert.ok(components.has(name), `the SBOM does not list ${name}`);
  }
  for (const seeded of release.seeded) {
    assert.ok(components.has(seeded.replace(/@[^@]+$/, "")), `the SBOM does not list ${seeded}`);
  }
});

test("the docs site gets every released document from the registry at spec/<version>/", async () => {
  const site = join(scratch, "site");
  await mkdir(site);
  await run("node", [join(root, "apps", "docs", "scripts", "archive-versions.mjs"), site], {
    cwd: project,
    env: userEnv,
  });
  const spec = release.released.find((p) => p.name === "@engage-voice/spec");
  const versions = JSON.parse(await readFile(join(site, "spec", "versions.json"), "utf8"));
  assert.deepEqual(versions, [spec.version]);
  const document = JSON.parse(await readFile(join(site, "spec", spec.version, "openapi.json"), "utf8"));
  assert.equal(document.info.version, spec.version);
  assert.match(await readFile(join(site, "spec", spec.version, "openapi.yaml"), "utf8"), /^openapi: 3\.1/m);
});
