// `engage-voice token` answers a valid stored session on a fast path that loads neither the token
// manager nor the clients, and runs the full path on any doubt. A preload notes whether the
// process loaded @engage-voice/auth's main entry (the manager): never on the fast path, always on the
// full one. Each doubt is a case below; a valid session prints the same bytes and exit code either way.
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { renewalDefaults } from "@engage-voice/auth/internal";
import { describe, expect, it } from "vitest";
import { cliIn, tempHome, tokenPath } from "./helpers.js";

const HOST = "https://engage.ringcentral.com";
const DAY = 86_400_000;

/** A preload that writes, as the process exits, whether the token manager's entry was loaded. */
async function managerProbe(home: string): Promise<string> {
  const file = join(home, "manager-probe.mjs");
  await writeFile(
    file,
    `import { registerHooks } from "node:module";
let manager = false;
registerHooks({
  load(url, context, next) {
    if (/[\\\\/]auth[\\\\/]dist[\\\\/]index\\.js$/.test(url)) manager = true;
    return next(url, context);
  },
});
process.on("exit", () => process.stderr.write(manager ? "[full path]\\n" : "[fast path]\\n"));
`,
  );
  return file;
}

interface Stored {
  accessToken: string;
  expiresAt: number;
  obtainedAt: number;
  sequence: number;
  tenant: string;
}

/** A home whose default profile holds `set` for the production host (no config file: its default). */
async function homeWith(set: Partial<Stored>, mode = 0o600) {
  const home = await tempHome();
  const file = tokenPath(home, "default", HOST);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const now = Date.now();
  const stored: Stored = {
    accessToken: "stored-access",
    expiresAt: now + DAY,
    obtainedAt: now,
    sequence: 1,
    tenant: "default",
    ...set,
  };
  await writeFile(file, JSON.stringify(stored), { mode });
  await chmod(file, mode);
  const probe = await managerProbe(home);
  const cli = cliIn(home);
  return {
    home,
    file,
    run: (args: string[] = ["token"], env: Record<string, string> = {}) =>
      cli(args, { env: { NODE_OPTIONS: `--import=${probe}`, ...env } }),
  };
}

/** What a run printed, without the probe's line. */
const withoutProbe = (result: { code: number | null; stdout: string; stderr: string }) => ({
  ...result,
  stderr: result.stderr.replace(/\[(fast|full) path\]\n$/, ""),
});

describe("engage-voice token, fast path", () => {
  it("prints a valid stored token without loading the token manager", async () => {
    const { run } = await homeWith({});
    expect(await run()).toEqual({ code: 0, stdout: "stored-access\n", stderr: "[fast path]\n" });
  });

  it("prints what the full path prints, with the same exit code", async () => {
    const { run } = await homeWith({});
    const fast = await run();
    // A timeout in the environment is a doubt of the fast path, and changes nothing of this answer.
    const full = await run(["token"], { ENGAGE_VOICE_TIMEOUT: "30" });
    expect(fast.stderr).toBe("[fast path]\n");
    expect(full.stderr).toBe("[full path]\n");
    expect(withoutProbe(fast)).toEqual(withoutProbe(full));
  });

  it("takes the profile, its variable and a host option as the full path does", async () => {
    const { run, home } = await homeWith({ tenant: "staging" });
    const file = tokenPath(home, "staging", "http://127.0.0.1:4010");
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const now = Date.now();
    await writeFile(
      file,
      JSON.stringify({
        accessToken: "staging-access",
        expiresAt: now + DAY,
        obtainedAt: now,
        sequence: 1,
        tenant: "staging",
      }),
      { mode: 0o600 },
    );
    const result = await run(["token", "--base-url", "http://127.0.0.1:4010"], {
      ENGAGE_VOICE_PROFILE: "staging",
    });
    expect(result).toEqual({ code: 0, stdout: "staging-access\n", stderr: "[fast path]\n" });
  });
});

describe("engage-voice token runs the full path on any doubt", () => {
  const fullPath = (result: { stderr: string }) => expect(result.stderr.endsWith("[full path]\n")).toBe(true);

  it("no stored session: not logged in (exit 3)", async () => {
    const { run } = await homeWith({});
    const result = await run(["token", "--profile", "other"]);
    fullPath(result);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
  });

  it("a token in the manager's refresh window", async () => {
    const now = Date.now();
    // A long lifetime: the window is its longest (maxWindowMs); the token is a second inside it.
    const { run } = await homeWith({
      obtainedAt: now - DAY,
      expiresAt: now + renewalDefaults.maxWindowMs - 1_000,
    });
    fullPath(await run());
  });

  it("a token file other users can read", async () => {
    const { run } = await homeWith({}, 0o644);
    const result = await run();
    fullPath(result);
    // The full path reads it (the file store has no rule on its mode): the same answer.
    expect(result.stdout).toBe("stored-access\n");
  });

  it("a set of another tenant", async () => {
    const { run } = await homeWith({ tenant: "someone-else" });
    const result = await run();
    fullPath(result);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
  });

  it("a renewal's lock file next to the token file", async () => {
    const { run, file } = await homeWith({});
    await writeFile(`${file}.lock`, "held");
    const result = await run();
    fullPath(result);
    expect(result).toMatchObject({ code: 0, stdout: "stored-access\n" });
  });

  it("a token file that is not a regular file", async () => {
    const home = await tempHome();
    await mkdir(tokenPath(home, "default", HOST), { recursive: true, mode: 0o700 });
    const probe = await managerProbe(home);
    const result = await cliIn(home)(["token"], { env: { NODE_OPTIONS: `--import=${probe}` } });
    fullPath(result);
    expect(result.code).not.toBe(0);
  });

  it.each([
    ["--json", ["token", "--json"], {}],
    ["--debug", ["token", "--debug"], {}],
    ["--timeout", ["token", "--timeout", "5"], {}],
    ["a parent token in the environment", ["token"], { ENGAGE_VOICE_RC_TOKEN: "parent" }],
    [
      "a host option that is not an origin",
      ["token", "--base-url", "https://engage.ringcentral.com/path"],
      {},
    ],
  ])("%s", async (_, args, env) => {
    const { run } = await homeWith({});
    fullPath(await run(args, env));
  });
});
