// Worker processes, each with a token manager per tenant on one Redis (many tenants of the sandbox),
// tokens that expire every few seconds and refresh answers the sandbox holds back, so renewals are
// always under way. A rolling restart (SIGTERM: every manager closed, then exit) loses nothing: no
// lock left, no set left marked in flight, no tenant exchanged twice, no refresh token presented
// twice. A worker SIGKILLed mid-renewal: its locks expire within the lease, the others serve its
// tenants, and only tenants whose refresh was on the wire exchange again. Real processes, the real
// sandbox and a real redis-server on 127.0.0.1.
import { randomUUID } from "node:crypto";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { redisNames, redisStoreDefaults } from "@engage-voice/store-redis";
import { type StartedProcess, startProcess } from "@engage-voice/test-kit/processes";
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, expect, inject, it } from "vitest";

const worker = new URL("./fixtures/tenant-worker.mjs", import.meta.url).pathname;
const TENANTS = 50;
const WORKERS = 4;
/** Hang guards, not verdicts. */
const READY_MS = 60_000;
const STOP_MS = 30_000;

let sandbox: RunningSandbox;
let redis: ReturnType<typeof createClient>;
const started: StartedProcess[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    tenants: TENANTS,
    tokenLifetimeMs: 3_000,
    faults: { enabled: true },
    // Room for every tenant's one exchange and, after the kill, a second: anything past that fails
    // the count below rather than hiding behind a 429.
    exchangeRateLimit: { limit: 5, windowMs: 60_000 },
  });
  // Every refresh answer is held back: SIGTERM and SIGKILL land on renewals under way.
  sandbox.faults.next({ kind: "delay", ms: 200, path: "/api/auth/token/refresh", times: 10_000 });
  redis = await createClient({ url: inject("redisUrl") }).connect();
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => child.stop("SIGKILL", STOP_MS).catch(() => {})));
});
afterAll(async () => {
  await redis?.close();
  await sandbox?.stop();
});

const tenantIds = Array.from({ length: TENANTS }, (_, n) => n + 1);

async function startWorker(prefix: string): Promise<StartedProcess> {
  const child = startProcess(process.execPath, [
    worker,
    sandbox.mainUrl,
    inject("redisUrl"),
    prefix,
    String(TENANTS),
  ]);
  started.push(child);
  try {
    await child.waitForOutput(/^ready$/m, READY_MS);
  } catch (error) {
    throw new Error(`a worker did not start: ${child.output.stderr.slice(-2_000)}`, { cause: error });
  }
  return child;
}

async function stopWorker(child: StartedProcess, signal: "SIGTERM" | "SIGKILL") {
  const code = await child.stop(signal, STOP_MS);
  started.splice(started.indexOf(child), 1);
  return code;
}

const count = (child: StartedProcess, line: string) =>
  (child.output.stdout.match(new RegExp(`^${line}$`, "gm")) ?? []).length;

/** Resolves once `child` has printed one more line matching `line` than it had; READY_MS is a hang guard. */
async function oneMore(child: StartedProcess, line: string) {
  const target = count(child, line) + 1;
  for (const deadline = Date.now() + READY_MS; count(child, line) < target; ) {
    if (child.exited || Date.now() > deadline) {
      throw new Error(`no new line ${line} from a worker: ${child.output.stderr.slice(-2_000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Renewals each tenant completed since the start, from the sandbox's counters. */
const countersOf = () => tenantIds.map((i) => sandbox.control.counters(i));

/** What Redis holds under `prefix`: the lock keys, and the tenants whose set has no refresh token. */
async function leftOver(prefix: string) {
  const locks = await redis.keys(`${prefix}:*:lock`);
  const marked: number[] = [];
  for (const i of tenantIds) {
    const stored = JSON.parse((await redis.get(redisNames(`tenant-${i}`, prefix).tokens)) ?? "null");
    if (typeof stored?.refreshToken !== "string") {
      marked.push(i);
    }
  }
  return { locks, marked };
}

it(`a rolling restart of ${WORKERS} workers with ${TENANTS} tenants each loses nothing`, {
  timeout: 300_000,
}, async () => {
  const prefix = `e2e-${randomUUID()}`;
  const workers: StartedProcess[] = [];
  for (let n = 0; n < WORKERS; n++) {
    workers.push(await startWorker(prefix));
  }
  const refreshesBefore = countersOf().reduce((sum, c) => sum + c.refreshes, 0);
  for (let n = 0; n < WORKERS; n++) {
    const old = workers[n] as StartedProcess;
    // Renewals are under way when the signal comes: wait for this worker's next mark.
    await oneMore(old, "marking \\d+");
    expect(await stopWorker(old, "SIGTERM")).toBe(0);
    expect(old.output.stdout).toMatch(/^closed true$/m);
    workers[n] = await startWorker(prefix);
  }
  for (const child of workers) {
    expect(await stopWorker(child, "SIGTERM")).toBe(0);
  }
  const counters = countersOf();
  expect(counters.reduce((sum, c) => sum + c.refreshes, 0)).toBeGreaterThan(refreshesBefore);
  expect(counters.map((c) => c.exchanges)).toEqual(tenantIds.map(() => 1));
  expect(counters.map((c) => c.reusedRefreshTokens)).toEqual(tenantIds.map(() => 0));
  expect(await leftOver(prefix)).toEqual({ locks: [], marked: [] });
});

it("a worker SIGKILLed mid-renewal: its locks expire within the lease, the others serve its tenants, and only tenants on the wire exchange again", {
  timeout: 300_000,
}, async () => {
  const prefix = `e2e-${randomUUID()}`;
  const exchangesBefore = countersOf().map((c) => c.exchanges);
  const [victim, ...survivors] = [await startWorker(prefix), await startWorker(prefix)];
  const doomed = victim as StartedProcess;
  // Kill it right after it marked a set in flight: that refresh is on the wire.
  await oneMore(doomed, "marking \\d+");
  await stopWorker(doomed, "SIGKILL");
  // The tenants whose last word from the dead worker was a mark: their refresh may have been spent.
  const last = new Map<number, string>();
  for (const [, what, i] of doomed.output.stdout.matchAll(/^(marking|saved) (\d+)$/gm)) {
    last.set(Number(i), what as string);
  }
  const onTheWire = [...last].filter(([, what]) => what === "marking").map(([i]) => i);
  expect(onTheWire.length).toBeGreaterThan(0);
  // Its locks die with their lease: none lives longer than one lockTtlMs from now.
  for (const lock of await redis.keys(`${prefix}:*:lock`)) {
    expect(await redis.pTTL(lock)).toBeLessThanOrEqual(redisStoreDefaults.lockTtlMs);
  }
  // The survivor renews every tenant, the dead worker's included: every set is whole again.
  const survivor = survivors[0] as StartedProcess;
  for (const i of onTheWire) {
    await oneMore(survivor, `saved ${i}`);
  }
  expect(await stopWorker(survivor, "SIGTERM")).toBe(0);
  const again = countersOf()
    .map((c, n) => ({ tenant: n + 1, exchanges: c.exchanges - (exchangesBefore[n] as number) }))
    .filter(({ exchanges }) => exchanges > 1);
  for (const { tenant, exchanges } of again) {
    expect(onTheWire).toContain(tenant);
    expect(exchanges).toBe(2);
  }
  expect(countersOf().map((c) => c.reusedRefreshTokens)).toEqual(tenantIds.map(() => 0));
  expect(await leftOver(prefix)).toEqual({ locks: [], marked: [] });
});
