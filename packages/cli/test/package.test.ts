// The packed tarball, as a registry would serve it, installs with plain npm next to the packed
// client and auth packages, and its bin runs: `npx engage-voice --help`, then a login and a call
// against the sandbox.
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempHome } from "./helpers.js";

const run = promisify(execFile);
const root = join(import.meta.dirname, "..", "..", "..");

/** The machine's environment without pnpm's, so nothing of the workspace leaks into the project. */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|NODE_PATH$|NODE_OPTIONS$|INIT_CWD$|ENGAGE_VOICE_)/i.test(name)) {
      continue;
    }
    env[name] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(":")
    .filter((entry) => entry !== "" && !entry.includes("node_modules"))
    .join(":");
  return { ...env, npm_config_update_notifier: "false", ...extra };
}

async function pack(dir: string, into: string): Promise<string> {
  const { stdout } = await run("pnpm", ["pack", "--json", "--pack-destination", into], {
    cwd: join(root, dir),
    env: process.env,
  });
  // Each package's prepack (the check that it is built) prints before the JSON does.
  const json = stdout.slice(Math.max(0, stdout.search(/^\{$/m)));
  return (JSON.parse(json) as { filename: string }).filename;
}

let project: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
  const scratch = await tempHome();
  const tarballs = join(scratch, "tarballs");
  project = join(scratch, "project");
  await mkdir(tarballs);
  await mkdir(project);
  const [client, auth, sandboxTarball, cli] = [
    await pack("packages/client", tarballs),
    await pack("packages/auth", tarballs),
    await pack("apps/sandbox", tarballs),
    await pack("packages/cli", tarballs),
  ];
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({
      name: "consumer",
      private: true,
      dependencies: {
        "@engage-voice/client": `file:${client}`,
        "@engage-voice/auth": `file:${auth}`,
        "@engage-voice/sandbox": `file:${sandboxTarball}`,
        "@engage-voice/cli": `file:${cli}`,
      },
    }),
  );
  await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--no-package-lock", "--prefer-offline", "--ignore-scripts"],
    { cwd: project, env: plainEnv(), timeout: 180_000 },
  );
}, 240_000);

afterAll(async () => {
  await sandbox?.stop();
});

describe("the packed tarball", () => {
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
    const manifest = JSON.parse(await readFile(join(root, "packages", "cli", "package.json"), "utf8"));
    expect(version.stdout).toBe(`${manifest.version}\n`);
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
