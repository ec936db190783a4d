// The multi-process race of the shared-store tests (the file store, the Redis store): several
// processes renew across one expiry, and every one must end with the same single refresh.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { expect } from "vitest";

interface ProcessResult {
  calls: { exchange: number; refresh: number; rejected: number };
  accessToken: string;
}

/**
 * Starts `count` Node processes with `args` and releases them at one moment: each prints `ready` once
 * set up and then waits for a line on its stdin, which all get when all are ready (however long a busy
 * machine took to start them). Resolves with each one's last line of output; a process that fails or
 * outlives `timeoutMs` fails the run.
 */
export async function runTogether(args: string[], count: number, timeoutMs = 60_000): Promise<string[]> {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"], timeout: timeoutMs }),
  );
  const runs = children.map(async (child) => {
    // A child that died before reading its go: its exit code says so, not a broken pipe.
    child.stdin.on("error", () => {});
    const lines: string[] = [];
    const ready = new Promise<void>((resolve) => {
      createInterface({ input: child.stdout }).on("line", (line) => {
        if (line === "ready" && lines.length === 0) {
          resolve();
        }
        lines.push(line);
      });
    });
    const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    await Promise.race([ready, exited]);
    return { child, lines, exited };
  });
  try {
    const started = await Promise.all(runs);
    for (const { child } of started) {
      child.stdin.end("go\n");
    }
    return await Promise.all(
      started.map(async ({ lines, exited }) => {
        const [code, signal] = await exited;
        if (code !== 0) {
          throw new Error(`A child process ended with ${signal ?? `exit code ${code}`}`);
        }
        return lines.at(-1) ?? "";
      }),
    );
  } finally {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
      }
    }
  }
}

/**
 * Starts `count` copies of the `child` script with `args` and releases them at one moment (see
 * `runTogether`; the child waits with `released()` of its own), after `expire`
 * made the stored set (holding the access token `initial`) look expired, and checks what every shared
 * store must achieve: one refresh for all, no spent refresh token presented, no new exchange, and the
 * same new token everywhere, which `mainUrl` accepts.
 *
 * The expiry is written into the store rather than waited for: with real short-lived tokens, a busy
 * machine can let the new token age past its refresh window while the others wait for the lock, and
 * the test would measure the machine, not the store.
 */
export async function expectOneRefreshForAllProcesses(
  {
    child,
    args,
    initial,
    mainUrl,
    expire,
  }: { child: string; args: string[]; initial: string; mainUrl: string; expire: () => Promise<void> },
  count = 4,
): Promise<void> {
  await expire();
  const outputs = await runTogether([child, ...args], count);
  const results = outputs.map((line) => JSON.parse(line) as ProcessResult);
  const total = (key: keyof ProcessResult["calls"]) => results.reduce((n, r) => n + r.calls[key], 0);
  expect(total("refresh")).toBe(1);
  expect(total("rejected")).toBe(0);
  expect(total("exchange")).toBe(0);
  const tokens = new Set(results.map((r) => r.accessToken));
  expect(tokens.size).toBe(1);
  expect(tokens.has(initial)).toBe(false);
  // Plain fetch: the kit does not depend on the packages it tests.
  const response = await fetch(new URL("/voice/api/v1/admin/accounts", mainUrl), {
    headers: { Authorization: `Bearer ${[...tokens][0]}` },
  });
  expect(response.status).toBe(200);
}

/** A stored token set (its JSON) moved into the past: its access token looks expired to every manager. */
export function expired(json: string): string {
  const set = JSON.parse(json) as { expiresAt: number; obtainedAt: number };
  const lifetime = set.expiresAt - set.obtainedAt;
  set.expiresAt = Date.now() - 1_000;
  set.obtainedAt = set.expiresAt - lifetime;
  return JSON.stringify(set);
}
