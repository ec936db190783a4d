// The many-tenants benchmark, one step of `pnpm bench`: one sandbox with N tenants in this process,
// W worker processes (worker.ts), each with a tenant pool on one Redis, first a redis-server, then a
// Redis Cluster of three masters. Each topology runs a ramp, a steady window, a worker SIGKILLed
// with a refresh on the wire, and a rolling restart, and between them pauses the load to read the
// sandbox's counters and Redis as they are at rest. Figures to results/tenants.json and stdout.
//
//   node src/tenants/main.ts [--tenants 10000] [--workers 4] [--seconds 45] [--lifetime-ms 15000]
//                            [--rate 1000] [--redis single,cluster] [--smoke] [--note "why smaller"]
//
// Every flag has an environment variable for `pnpm bench`: BENCH_TENANTS, BENCH_TENANTS_WORKERS,
// BENCH_TENANTS_SECONDS, BENCH_TENANTS_LIFETIME_MS, BENCH_TENANTS_RATE, BENCH_TENANTS_REDIS;
// BENCH_TENANTS_SMOKE=1 is --smoke, BENCH_TENANTS_NOTE the note (printed with the figures).
import { execFileSync, fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, freemem, loadavg, release, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { redisStoreDefaults } from "@engage-voice/store-redis";
import { startRedis, startRedisCluster } from "@engage-voice/test-kit/servers";
import { createClient } from "redis";
import {
  emptyStats,
  type FromWorker,
  type OnWire,
  type ToWorker,
  type WorkerConfig,
  type WorkerStats,
} from "./protocol.ts";
import { type TenantsResult, type TopologyFigures, tenantsSection, type Waits } from "./report.ts";

// 10,000 tenants renew at tenants ÷ lifetime a second: a minute's lifetime keeps that near what two
// cores serve beside the workers' own calls (at 15 s the run measured the machine's backlog instead),
// and a steady window of three lifetimes sees every tenant expire several times.
const DEFAULTS = { tenants: 10_000, workers: 4, seconds: 180, lifetimeMs: 60_000, rate: 1_000 };
// A size that runs in about a minute, for working on the benchmark itself.
const SMOKE = { tenants: 200, workers: 4, seconds: 8, lifetimeMs: 4_000, rate: 300 };
const PREFIX = redisStoreDefaults.prefix;
const LOCK_TTL_MS = redisStoreDefaults.lockTtlMs;

const { values } = parseArgs({
  options: {
    tenants: { type: "string" },
    workers: { type: "string" },
    seconds: { type: "string" },
    "lifetime-ms": { type: "string" },
    rate: { type: "string" },
    redis: { type: "string" },
    smoke: { type: "boolean" },
    note: { type: "string" },
    out: { type: "string" },
  },
});
const env = process.env;
const base = values.smoke || env.BENCH_TENANTS_SMOKE === "1" ? SMOKE : DEFAULTS;
function size(
  flag: string | undefined,
  variable: string | undefined,
  fallback: number,
  least: number,
): number {
  const given = flag ?? variable;
  const value = given === undefined || given === "" ? fallback : Number(given);
  if (!Number.isSafeInteger(value) || value < least) {
    console.error(`tenants benchmark: ${given} is not a whole number of at least ${least}`);
    process.exit(2);
  }
  return value;
}
const N = size(values.tenants, env.BENCH_TENANTS, base.tenants, 1);
const W = size(values.workers, env.BENCH_TENANTS_WORKERS, base.workers, 2);
const SECONDS = size(values.seconds, env.BENCH_TENANTS_SECONDS, base.seconds, 1);
// The sandbox's JWT times are whole seconds: 1 s is the shortest lifetime it takes.
const LIFETIME_MS = size(values["lifetime-ms"], env.BENCH_TENANTS_LIFETIME_MS, base.lifetimeMs, 1_000);
const RATE = size(values.rate, env.BENCH_TENANTS_RATE, base.rate, 1);
const TOPOLOGIES = (values.redis ?? env.BENCH_TENANTS_REDIS ?? "single,cluster").split(",");
const OUT = values.out ?? new URL("../../results/tenants.json", import.meta.url).pathname;
const WORKER = new URL("./worker.ts", import.meta.url).pathname;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (line: string) => console.log(`[tenants] ${line}`);
const tenantIds = Array.from({ length: N }, (_, i) => i + 1);

// ---------------------------------------------------------------------------------------------------
// Workers

interface Worker {
  send(message: ToWorker): void;
  next<T extends FromWorker["type"]>(type: T): Promise<Extract<FromWorker, { type: T }>>;
  signal(signal: NodeJS.Signals): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  idleHeap: number;
}

const children = new Set<ReturnType<typeof fork>>();
// Workers also end themselves when this process's IPC channel closes (worker.ts); this covers the
// ordinary exits of this process, where that could come a moment later.
process.on("exit", () => {
  for (const child of children) {
    child.kill("SIGKILL");
  }
});

async function startWorker(config: WorkerConfig): Promise<Worker> {
  const child = fork(WORKER, [JSON.stringify(config)], {
    execArgv: ["--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  children.add(child);
  const inbox: FromWorker[] = [];
  const waiting: { type: string; resolve: (message: FromWorker) => void }[] = [];
  child.on("message", (message: FromWorker) => {
    const at = waiting.findIndex((w) => w.type === message.type);
    if (at >= 0) {
      waiting.splice(at, 1)[0]?.resolve(message);
    } else {
      inbox.push(message);
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  const next = <T extends FromWorker["type"]>(type: T) => {
    const at = inbox.findIndex((m) => m.type === type);
    if (at >= 0) {
      return Promise.resolve(inbox.splice(at, 1)[0] as Extract<FromWorker, { type: T }>);
    }
    return Promise.race([
      new Promise<Extract<FromWorker, { type: T }>>((resolve) =>
        waiting.push({ type, resolve: resolve as (message: FromWorker) => void }),
      ),
      // A last message can be read after the exit is reported: it is given a moment to arrive.
      exited.then(async ({ code, signal }) => {
        await sleep(200);
        throw new Error(`a worker exited (${code ?? signal}) before it said ${type}`);
      }),
    ]);
  };
  const ready = await next("ready");
  return {
    send: (message) => child.send(message),
    next,
    signal: (signal) => child.kill(signal),
    exited,
    idleHeap: ready.heapUsed,
  };
}

function merge(into: WorkerStats, from: WorkerStats): void {
  into.requests += from.requests;
  into.expiredTokens += from.expiredTokens;
  into.exchanged += from.exchanged;
  into.refreshed += from.refreshed;
  into.renewals += from.renewals;
  // The worst worker's.
  into.loopDelayP99 = Math.max(into.loopDelayP99, from.loopDelayP99);
  into.loopDelayMax = Math.max(into.loopDelayMax, from.loopDelayMax);
  for (const w of from.expiryWaits) {
    into.expiryWaits.push(w);
  }
  for (const w of from.firstWaits) {
    into.firstWaits.push(w);
  }
  for (const [key, n] of Object.entries(from.errors)) {
    into.errors[key] = (into.errors[key] ?? 0) + n;
  }
  for (const [key, n] of Object.entries(from.sent)) {
    into.sent[key] = (into.sent[key] ?? 0) + n;
  }
  for (const [key, n] of Object.entries(from.logs)) {
    into.logs[key] = (into.logs[key] ?? 0) + n;
  }
}

function merged(...all: WorkerStats[]): WorkerStats {
  const into = emptyStats();
  for (const stats of all) {
    merge(into, stats);
  }
  return into;
}

function percentiles(ms: number[]): Waits {
  const sorted = Float64Array.from(ms).sort();
  const rank = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
  return { count: sorted.length, p50: rank(0.5), p99: rank(0.99), max: sorted[sorted.length - 1] ?? 0 };
}

// ---------------------------------------------------------------------------------------------------
// Redis and the sandbox at rest

interface TenantState {
  exchanges: number;
  refreshes: number;
  reused: number;
  rateLimited: number;
  /** The stored set's sequence (0: none stored), and whether it is marked in flight. */
  sequence: number;
  marked: boolean;
  locked: boolean;
}

interface Snapshot {
  tenants: TenantState[];
  /** INFO commandstats before and after this snapshot's own reads, all nodes summed. */
  commandsBefore: Record<string, number>;
  commandsAfter: Record<string, number>;
  locks: number;
  marks: number;
  /** Each lock found, with its time to live then (ms; -1: none): what holds it, if the pause missed one. */
  lockTtls: string[];
}

type Node = ReturnType<typeof createClient>;

async function commandStats(nodes: Node[]): Promise<Record<string, number>> {
  const total: Record<string, number> = {};
  for (const node of nodes) {
    for (const [, name, calls] of (await node.info("commandstats")).matchAll(
      /^cmdstat_([^:]+):calls=(\d+)/gm,
    )) {
      total[name as string] = (total[name as string] ?? 0) + Number(calls);
    }
  }
  return total;
}

const tenantOf = (key: string) => Number(/\{tenant-(\d+)\}/.exec(key)?.[1] ?? 0);

/** The sandbox's counters and every node's keys; call it while the workers are paused. */
async function snapshot(sandbox: RunningSandbox, nodes: Node[]): Promise<Snapshot> {
  const commandsBefore = await commandStats(nodes);
  const tenants: TenantState[] = [
    { exchanges: 0, refreshes: 0, reused: 0, rateLimited: 0, sequence: 0, marked: false, locked: false },
  ];
  for (const i of tenantIds) {
    const c = sandbox.control.counters(i);
    tenants[i] = {
      exchanges: c.exchanges,
      refreshes: c.refreshes,
      reused: c.reusedRefreshTokens,
      rateLimited: c.rateLimitedExchanges,
      sequence: 0,
      marked: false,
      locked: false,
    };
  }
  let marks = 0;
  const lockTtls: string[] = [];
  // SCAN and GET per node: on a cluster each master lists and serves the keys of its own slots.
  for (const node of nodes) {
    for await (const keys of node.scanIterator({ MATCH: `${PREFIX}:*`, COUNT: 1000 })) {
      const sets = keys.filter((key) => key.endsWith(":tokens"));
      const texts = await Promise.all(sets.map((key) => node.get(key)));
      sets.forEach((key, at) => {
        const state = tenants[tenantOf(key)];
        const stored = JSON.parse(texts[at] ?? "{}") as { sequence?: number; refreshToken?: unknown };
        if (state) {
          state.sequence = stored.sequence ?? 0;
          state.marked = typeof stored.refreshToken !== "string";
        }
        if (typeof stored.refreshToken !== "string") {
          marks++;
        }
      });
      for (const key of keys.filter((k) => k.endsWith(":lock"))) {
        lockTtls.push(`${key} ${await node.pTTL(key)} ms`);
        const state = tenants[tenantOf(key)];
        if (state) {
          state.locked = true;
        }
      }
    }
  }
  return {
    tenants,
    commandsBefore,
    commandsAfter: await commandStats(nodes),
    locks: lockTtls.length,
    marks,
    lockTtls,
  };
}

const calls = (t: TenantState) => t.exchanges + t.refreshes;
const beyondFirst = (t: TenantState) => Math.max(0, t.exchanges - 1);
const total = (s: Snapshot, of: (t: TenantState) => number) =>
  tenantIds.reduce((sum, i) => sum + of(s.tenants[i] as TenantState), 0);
/** Over the tenants, what `of` grew by from `a` to `b`. */
const grew = (a: Snapshot, b: Snapshot, of: (t: TenantState) => number) => total(b, of) - total(a, of);

// ---------------------------------------------------------------------------------------------------
// One topology

async function runTopology(cluster: boolean): Promise<TopologyFigures> {
  const name = cluster ? "Redis Cluster, 3 masters" : "one redis-server";
  const redis = cluster ? await startRedisCluster() : await startRedis();
  const urls = "urls" in redis ? redis.urls : [redis.url];
  const sandbox = await startSandbox({
    tenants: N,
    tokenLifetimeMs: LIFETIME_MS,
    // Each tenant its own window (the default, said here because the figures depend on it): a
    // tenant's first exchange and the one after a kill stay within 5 a minute.
    exchangeRateLimitScope: "tenant",
    control: { enabled: true },
    faults: { enabled: true },
  });
  const nodes: Node[] = await Promise.all(urls.map((url) => createClient({ url }).connect()));
  const config: WorkerConfig = { baseUrl: sandbox.mainUrl, redisUrls: urls, cluster, tenants: N, rate: RATE };
  const workers: Worker[] = [];
  const phase = { stats: emptyStats() };
  const scratch = mkdtempSync(join(tmpdir(), "ev-bench-tenants-"));
  try {
    say(`${name}: ${W} workers, ${N} tenants`);
    for (let i = 0; i < W; i++) {
      workers.push(await startWorker(config));
    }
    const pauseAll = async (heap = false) => {
      for (const w of workers) {
        w.send({ type: "pause", heap });
      }
      const replies = await Promise.all(workers.map((w) => w.next("paused")));
      for (const reply of replies) {
        merge(phase.stats, reply.stats);
      }
      return replies;
    };
    const resumeAll = () => {
      for (const w of workers) {
        w.send({ type: "load", rampStart: 0, rampMs: 0 });
      }
    };
    const endPhase = () => {
      const stats = phase.stats;
      phase.stats = emptyStats();
      return stats;
    };

    // The ramp: tenants come into use over one lifetime, so that expiries are spread over it.
    const rampStart = Date.now() + 100;
    for (const w of workers) {
      w.send({ type: "load", rampStart, rampMs: LIFETIME_MS });
    }
    await sleep(LIFETIME_MS + 2_000);
    await pauseAll();
    const ramp = endPhase();
    const afterRamp = await snapshot(sandbox, nodes);
    say(`${name}: ramp done, ${ramp.requests} requests, ${total(afterRamp, calls)} token calls`);

    // The steady window.
    resumeAll();
    const steadyStarted = performance.now();
    await sleep(SECONDS * 1000);
    const paused = await pauseAll(true);
    const steadySeconds = Math.round((performance.now() - steadyStarted) / 1000);
    const steady = endPhase();
    const afterSteady = await snapshot(sandbox, nodes);
    const used = tenantIds.filter((i) => calls(afterSteady.tenants[i] as TenantState) > 0);
    const expiries = used
      .map((i) => Math.max(0, (afterSteady.tenants[i] as TenantState).sequence - 1))
      .sort((a, b) => a - b);
    const extra = used.map(
      (i) => calls(afterSteady.tenants[i] as TenantState) - (afterSteady.tenants[i] as TenantState).sequence,
    );
    const commands: Record<string, number> = {};
    for (const [command, n] of Object.entries(afterSteady.commandsBefore)) {
      const delta = n - (afterRamp.commandsAfter[command] ?? 0);
      if (delta > 0 && command !== "info") {
        commands[command] = delta;
      }
    }
    const steadyFigures: TopologyFigures["steady"] = {
      seconds: steadySeconds,
      requests: steady.requests,
      callerErrors: merged(ramp, steady).errors,
      expiredTokens: ramp.expiredTokens + steady.expiredTokens,
      tokenCalls: total(afterSteady, calls),
      generations: total(afterSteady, (t) => t.sequence),
      tenantsUsed: used.length,
      tenantsWithExtraCalls: extra.filter((x) => x > 0).length,
      mostExtraCalls: Math.max(0, ...extra),
      expiries: {
        total: expiries.reduce((a, b) => a + b, 0),
        min: expiries[0] ?? 0,
        median: expiries[expiries.length >> 1] ?? 0,
        max: expiries[expiries.length - 1] ?? 0,
      },
      reusedRefreshTokens: total(afterSteady, (t) => t.reused),
      rateLimitedExchanges: total(afterSteady, (t) => t.rateLimited),
      expiryWaits: percentiles(steady.expiryWaits),
      firstWaits: percentiles([...ramp.firstWaits, ...steady.firstWaits]),
      heap: paused.map((p, at) => ({ heapUsed: p.heapUsed, held: p.held, idle: workers[at]?.idleHeap ?? 0 })),
      redisCommands: commands,
      sentCommands: steady.sent,
      windowTokenCalls: grew(afterRamp, afterSteady, calls),
      windowRenewals: steady.renewals,
    };
    say(
      `${name}: steady window done: ${JSON.stringify({ ...steadyFigures, heap: undefined, redisCommands: undefined })}`,
    );
    report(ramp, "ramp");
    report(steady, "steady");

    // A worker SIGKILLed with a refresh on the wire. The sandbox holds the next refreshes a while, so
    // that the kill finds one sent and unanswered; the held ones of other workers just answer late.
    resumeAll();
    const killStarted = performance.now();
    const victim = workers[0] as Worker;
    const wireFile = join(scratch, "on-wire.json");
    victim.send({ type: "die", file: wireFile, minAgeMs: 100 });
    let died = false;
    void victim.exited.then(() => {
      died = true;
    });
    while (!died) {
      sandbox.faults.next({ kind: "delay", ms: 1_500, path: "/api/auth/token/refresh", times: 2 * W });
      await Promise.race([victim.exited, sleep(3_000)]);
    }
    const exit = await victim.exited;
    if (exit.signal !== "SIGKILL") {
      throw new Error(`the worker to kill exited with ${exit.code ?? exit.signal} instead`);
    }
    const onWire: OnWire[] = JSON.parse(readFileSync(wireFile, "utf8"));
    const atKill = await snapshot(sandbox, nodes);
    const locksAtKill = onWire.filter((c) => atKill.tenants[tenantOf(`{${c.tenant}}`)]?.locked).length;
    workers[0] = await startWorker(config);
    workers[0].send({ type: "load", rampStart: 0, rampMs: 0 });
    // Its locks end with their TTL; its marks once a survivor renews the tenant, within a lifetime.
    await sleep(LOCK_TTL_MS + LIFETIME_MS + 2_000);
    await pauseAll();
    const killed = endPhase();
    const afterKill = await snapshot(sandbox, nodes);
    const wired = new Set(onWire.map((c) => tenantOf(`{${c.tenant}}`)));
    const killFigures: TopologyFigures["kill"] = {
      onWire,
      locksAtKill,
      extraExchanges: grew(afterSteady, afterKill, beyondFirst),
      extraOutsideWire: tenantIds.filter(
        (i) =>
          !wired.has(i) &&
          beyondFirst(afterKill.tenants[i] as TenantState) >
            beyondFirst(afterSteady.tenants[i] as TenantState),
      ).length,
      lostAnswers: grew(afterSteady, afterKill, calls) - grew(afterSteady, afterKill, (t) => t.sequence),
      reusedRefreshTokens: grew(afterSteady, afterKill, (t) => t.reused),
      locksLeft: afterKill.locks,
      marksLeft: afterKill.marks,
      callerErrors: killed.errors,
      waits: percentiles([...killed.expiryWaits, ...killed.firstWaits]),
      seconds: Math.round((performance.now() - killStarted) / 1000),
    };
    say(`${name}: kill done: ${JSON.stringify(killFigures)}`);
    if (afterKill.lockTtls.length > 0) {
      say(`${name}: locks after the kill: ${afterKill.lockTtls.join(", ")}`);
    }
    report(killed, "kill");

    // The rolling restart: each worker in turn stops as a deployment stops it, and a new one starts.
    resumeAll();
    const restartStarted = performance.now();
    let renewalsAtSigterm = 0;
    let allDrained = true;
    for (let at = 0; at < workers.length; at++) {
      const old = workers[at] as Worker;
      old.signal("SIGTERM");
      const closed = await old.next("closed");
      merge(phase.stats, closed.stats);
      renewalsAtSigterm += closed.renewalsAtSigterm;
      allDrained &&= closed.drained;
      const { code } = await old.exited;
      if (code !== 0) {
        throw new Error(`a worker stopped with SIGTERM exited with ${code}`);
      }
      const started = await startWorker(config);
      started.send({ type: "load", rampStart: 0, rampMs: 0 });
      workers[at] = started;
    }
    // A mark left behind would show as an exchange once the tenant is next renewed, within a lifetime.
    await sleep(LIFETIME_MS + 2_000);
    await pauseAll();
    const restarted = endPhase();
    const afterRestart = await snapshot(sandbox, nodes);
    const restartFigures: TopologyFigures["restart"] = {
      workers: W,
      renewalsAtSigterm,
      allDrained,
      extraExchanges: grew(afterKill, afterRestart, beyondFirst),
      lostAnswers: grew(afterKill, afterRestart, calls) - grew(afterKill, afterRestart, (t) => t.sequence),
      reusedRefreshTokens: grew(afterKill, afterRestart, (t) => t.reused),
      locksLeft: afterRestart.locks,
      marksLeft: afterRestart.marks,
      callerErrors: restarted.errors,
      waits: percentiles([...restarted.expiryWaits, ...restarted.firstWaits]),
      firstWaits: percentiles(restarted.firstWaits),
      seconds: Math.round((performance.now() - restartStarted) / 1000),
    };
    say(`${name}: rolling restart done: ${JSON.stringify(restartFigures)}`);
    if (afterRestart.lockTtls.length > 0) {
      say(`${name}: locks after the restart: ${afterRestart.lockTtls.join(", ")}`);
    }
    report(restarted, "restart");
    return { name, steady: steadyFigures, kill: killFigures, restart: restartFigures };
  } finally {
    await Promise.all(
      workers.map(async (w) => {
        w.signal("SIGTERM");
        await w.exited;
      }),
    );
    await Promise.all(nodes.map((node) => node.close().catch(() => undefined)));
    await sandbox.stop();
    await redis.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** What a phase's managers logged, for whoever reads the run's output. */
function report(stats: WorkerStats, phase: string): void {
  say(
    `${phase}: the workers' event-loop delay, worst p99 ${stats.loopDelayP99.toFixed(0)} ms, max ${stats.loopDelayMax.toFixed(0)} ms`,
  );
  const logs = Object.entries(stats.logs);
  if (logs.length > 0) {
    say(`${phase}: the managers logged: ${logs.map(([message, n]) => `${n}× ${message}`).join("; ")}`);
  }
}

// ---------------------------------------------------------------------------------------------------

const started = performance.now();
say(
  `${N} tenants, ${W} workers, tokens living ${LIFETIME_MS / 1000} s, steady ${SECONDS} s, ${RATE} calls/s per worker, on ${TOPOLOGIES.join(" then ")}; about ${Math.round((TOPOLOGIES.length * (3 * LIFETIME_MS + LOCK_TTL_MS + 10_000 + SECONDS * 1000)) / 1000)} s`,
);
const topologies: TopologyFigures[] = [];
for (const topology of TOPOLOGIES) {
  if (topology !== "single" && topology !== "cluster") {
    console.error(
      `tenants benchmark: --redis takes single, cluster or both, comma-separated; not ${topology}`,
    );
    process.exit(2);
  }
  topologies.push(await runTopology(topology === "cluster"));
}

const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();
const dirty = git("status", "--porcelain").length > 0 ? " (the work tree had uncommitted changes)" : "";
const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GiB`;
const result: TenantsResult = {
  date: new Date().toISOString().slice(0, 16).replace("T", " "),
  commit: `${git("rev-parse", "--short", "HEAD")}${dirty}`,
  machine: `${cpus()[0]?.model.trim()}, ${availableParallelism()} cores, ${gib(totalmem())} (${gib(freemem())} free), load average ${loadavg()[0]?.toFixed(2)} at the end; Node ${process.version}, linux ${release()}`,
  sizes: {
    tenants: N,
    workers: W,
    tokenLifetimeMs: LIFETIME_MS,
    steadySeconds: SECONDS,
    ratePerWorker: RATE,
    lockTtlMs: LOCK_TTL_MS,
  },
  ...(N < DEFAULTS.tenants || W < DEFAULTS.workers
    ? {
        note: `A smaller run than the default ${DEFAULTS.tenants.toLocaleString("en-US")} tenants and ${DEFAULTS.workers} workers${(values.note ?? env.BENCH_TENANTS_NOTE) ? `: ${values.note ?? env.BENCH_TENANTS_NOTE}` : "."}`,
      }
    : {}),
  topologies,
  totalSeconds: (performance.now() - started) / 1000,
};
writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
console.log(`\n${tenantsSection(result)}\n`);
say(`figures written to ${OUT}`);
