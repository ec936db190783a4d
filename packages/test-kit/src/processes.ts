// The multi-process race of the shared-store tests (the file store, the Redis store): several
// processes renew across one expiry, and every one must end with the same single refresh.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect } from "vitest";

const run = promisify(execFile);

interface ProcessResult {
  calls: { exchange: number; refresh: number; rejected: number };
  accessToken: string;
}

/**
 * Starts `count` copies of the `child` script with `args` and one shared start time, after `expire`
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
  const goAt = String(Date.now() + 1500);
  const outputs = await Promise.all(
    Array.from({ length: count }, () => run(process.execPath, [child, ...args, goAt], { timeout: 60_000 })),
  );
  const results = outputs.map(({ stdout }) => JSON.parse(stdout) as ProcessResult);
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
