// The README's lines: the sandbox with its line's flags (started in process, for its counters), then the
// `serve` line as printed, in bash, in a process group of its own (bash, pnpm's shim, the deno
// package's bin and Deno), stopped as a whole.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { SANDBOX_FLAGS } from "@engage-voice/sandbox/cli";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const folder = fileURLToPath(new URL("..", import.meta.url));
const readme = await readFile(join(folder, "README.md"), "utf8");

/** The README's sh block between `<!-- name:start -->` and `<!-- name:end -->`. */
function block(name: string): string {
  const body = readme.split(`<!-- ${name}:start -->`)[1]?.split(`<!-- ${name}:end -->`)[0] ?? "";
  const script = /```sh\n([\s\S]*?)```/.exec(body)?.[1];
  if (!script) {
    throw new Error(
      `README.md has no \`\`\`sh block between <!-- ${name}:start --> and <!-- ${name}:end -->`,
    );
  }
  return script;
}

/**
 * The sandbox line's options, read by the sandbox's own flag table (an unknown or renamed flag
 * throws), after a check that it runs the sandbox package's bin.
 */
async function sandboxLine(): Promise<{ tenants: number }> {
  const [command, ...args] = block("sandbox").trim().split(/\s+/).slice(2);
  const manifest = createRequire(import.meta.url)("@engage-voice/sandbox/package.json");
  expect(Object.keys(manifest.bin)).toContain(command);
  const { values } = parseArgs({ args, options: SANDBOX_FLAGS, strict: true });
  return { tenants: Number(values.tenants) };
}

const { tenants } = await sandboxLine();
const tenant = Number(/sandbox-rc-token-tenant-(\d+)-ada/.exec(block("serve"))?.[1]);

let sandbox: RunningSandbox;
let denoDir: string;
let server: { child: ChildProcess; url: string; exited: Promise<number | null> };
/** The group's leader from the moment it is spawned: stopped after the tests, however they went. */
let leader: ChildProcess | undefined;

/** Runs the serve line with the sandbox's URL and a free port; resolves once it says where it listens. */
async function serve(): Promise<typeof server> {
  const script = block("serve")
    .replace("http://127.0.0.1:4020", sandbox.mainUrl)
    .replace("PORT=8000", "PORT=0");
  const child = spawn("bash", ["-e", "-c", script], {
    cwd: folder,
    detached: true, // its own process group, which the test stops whole
    // Deno's cache in a folder of this run; no update check (it would leave this machine).
    env: { ...process.env, DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  leader = child;
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  let output = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk;
      const found = /Serving one tenant on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (found) {
        resolve(found);
      }
    });
    exited.then((code) => reject(new Error(`the server ended (${code}) before it listened:\n${output}`)));
  });
  return { child, url, exited };
}

/** Whether anything of the group is still alive (signal 0 only asks). */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ tenants });
  denoDir = await mkdtemp(join(tmpdir(), "deno-tenant-"));
  server = await serve();
}, 90_000);

afterAll(async () => {
  const pid = leader?.pid;
  if (pid !== undefined && groupAlive(pid)) {
    process.kill(-pid, "SIGKILL"); // a failed test leaves nothing running
  }
  await sandbox?.stop();
  await rm(denoDir, { recursive: true, force: true });
});

describe("the Deno server of the README", () => {
  it("is run for a tenant the sandbox of the README seeds", () => {
    expect(tenant).toBeGreaterThan(0);
    expect(tenant).toBeLessThanOrEqual(tenants);
  });

  it("serves the tenant's active team and accounts, with one token exchange for all its calls", async () => {
    const team = await (await fetch(`${server.url}/team`)).json();
    expect(team).toEqual([
      { userId: Number(`${tenant}1001`), fullName: "Ada Example" },
      { userId: Number(`${tenant}1002`), fullName: "Sam Supervisor" },
      { userId: Number(`${tenant}1004`), fullName: "Rob Agent" },
      { userId: Number(`${tenant}1003`), fullName: "Lee Legacy" },
      { userId: Number(`${tenant}1006`), fullName: "Nia NoAccess" },
    ]);
    const accounts: { accountId: string; accountName: string }[] = await (
      await fetch(`${server.url}/accounts`)
    ).json();
    expect(accounts.map((account) => account.accountId)).toEqual(sandbox.tenant(tenant).accountIds);
    expect(accounts.every((account) => account.accountName.endsWith(`(tenant ${tenant})`))).toBe(true);
    await fetch(`${server.url}/team`);
    expect(sandbox.control.counters(tenant)).toMatchObject({ exchanges: 1, refreshes: 0 });
    expect(sandbox.control.counters(0).exchanges).toBe(0);
  });

  it("answers 404 with the routes it has", async () => {
    const answer = await fetch(`${server.url}/users`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ error: "not found: try /accounts or /team" });
  });

  it("stops with its whole process group on SIGTERM, leaving nothing listening", async () => {
    const pid = server.child.pid as number;
    process.kill(-pid, "SIGTERM");
    await server.exited;
    for (let tries = 0; groupAlive(pid) && tries < 200; tries++) {
      // Each process ends at once; the group goes once its last one (orphaned by bash) is reaped.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(groupAlive(pid)).toBe(false);
    await expect(fetch(`${server.url}/team`)).rejects.toThrow();
  });
});
