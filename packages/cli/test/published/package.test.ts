// The package as a release publishes it (from the release rehearsal's registry, `serveRegistry()` of
// @engage-voice/release) installs by name with plain npm, and its bin runs:
// `npx --no-install engage-voice --help`, then a login and a call against the sandbox.
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { plainEnv } from "@engage-voice/release/env";
import { type ServedRegistry, serveRegistry } from "@engage-voice/release/registry";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempHome } from "../helpers.js";

const run = promisify(execFile);

let project: string;
let sandbox: RunningSandbox;
let registry: ServedRegistry;
/** The version the rehearsal released the command line at. */
let released: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  registry = await serveRegistry();
  released = registry.release.released.find((p) => p.name === "@engage-voice/cli")?.version ?? "";
  project = join(await tempHome(), "project");
  await mkdir(project);
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "consumer", private: true, dependencies: { "@engage-voice/cli": released } }),
  );
  await run("npm", ["install", "--no-package-lock", "--ignore-scripts"], {
    cwd: project,
    env: plainEnv({ npm_config_registry: registry.url, npm_config_cache: join(project, ".npm-cache") }),
    timeout: 180_000,
  });
}, 240_000);

afterAll(async () => {
  await sandbox?.stop();
  await registry?.stop();
});

describe("the published package", () => {
  it("holds the bin and its chunks, the README and the license, and no source or test", async () => {
    const installed = join(project, "node_modules", "@engage-voice", "cli");
    const manifest = JSON.parse(await readFile(join(installed, "package.json"), "utf8"));
    expect(manifest.bin).toEqual({ "engage-voice": "./dist/cli.js" });
    expect(manifest.dependencies["@engage-voice/auth"]).not.toMatch(/workspace/);
    const { stdout } = await run("find", [".", "-type", "f"], { cwd: installed });
    const files = stdout.trim().split("\n").sort();
    expect(files).toContain("./README.md");
    expect(files).toContain("./LICENSE");
    expect(files).toContain("./dist/cli.js");
    expect(files.filter((f) => f.startsWith("./src") || f.startsWith("./test"))).toEqual([]);
  });

  it("npx engage-voice --help and --version run", async () => {
    const help = await run("npx", ["--no-install", "engage-voice", "--help"], {
      cwd: project,
      env: plainEnv(),
    });
    expect(help.stdout).toContain("Usage: engage-voice <command> [options]");
    const version = await run("npx", ["--no-install", "engage-voice", "--version"], {
      cwd: project,
      env: plainEnv(),
    });
    expect(version.stdout).toBe(`${released}\n`);
  });

  it("the installed bin logs in and lists accounts against the sandbox", async () => {
    const home = await tempHome();
    const env = plainEnv({ HOME: home, XDG_CONFIG_HOME: join(home, ".config") });
    const bin = join(project, "node_modules", ".bin", "engage-voice");
    const parentToken = sandbox.seed.parentTokens.find((p) => p.token.endsWith("-ada"))?.token as string;
    await run(bin, ["login", "--base-url", sandbox.mainUrl], {
      env: { ...env, ENGAGE_VOICE_RC_TOKEN: parentToken },
    });
    const { stdout } = await run(bin, ["accounts"], { env });
    expect(JSON.parse(stdout)).toHaveLength(3);
  });
});
