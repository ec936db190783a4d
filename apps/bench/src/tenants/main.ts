// The many-tenants step of `pnpm bench`: one sandbox of N tenants in this process and W worker
// processes (worker.ts), each a tenant pool on the pool's default bounds with its stores on one Redis:
// a redis-server, then the test kit's Redis Cluster of three masters. On each: a cold start (one new
// pool asks for every tenant at once, Redis empty), a ramp, a steady window, a worker SIGKILLed with a
// refresh on the wire and a rolling restart; between them the load pauses and the sandbox's counters
// and Redis are read at rest. Writes results/tenants.json and prints it; src/write-benchmarks.ts
// writes the Markdown of BENCHMARKS.md from it.
//
//   node src/tenants/main.ts [--smoke] [--tenants N] [--workers W] [--seconds S] [--lifetime-ms MS]
//                            [--rate R] [--redis single,cluster] [--note "why this size"]
//
// BENCH_TENANTS_SMOKE=1 is --smoke, for `pnpm bench:quick`.
import { fork } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect, parseArgs } from "node:util";
import { poolDefaults } from "@engage-voice/auth";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { redisStoreDefaults } from "@engage-voice/store-redis";
import { startRedis, startRedisCluster } from "@engage-voice/test-kit/servers";
import { createClient } from "redis";
import { spreadOf } from "../spread.ts";
import {
  emptyStats,
  type FromWorker,
  merge,
  type OnWire,
  type ToWorker,
  type WorkerConfig,
} from "./shared.ts";

// The full run: 10,000 tenants renew at tenants ÷ lifetime a second, and a minute's lifetime keeps
// that near what two cores serve beside the workers' own calls; a steady window of three lifetimes
// sees every tenant expire several times. The smoke run takes about a minute a topology. The least:
// two workers (one is killed), a second's lifetime (the sandbox's JWT times are whole seconds).
const SIZES = {
  full: { tenants: 10_000, workers: 4, seconds: 180, "lifetime-ms": 60_000, rate: 1_000 },
  smoke: { tenants: 200, workers: 4, seconds: 8, "lifetime-ms": 4_000, rate: 300 },
  least: { tenants: 1, workers: 2, seconds: 1, "lifetime-ms": 1_000, rate: 1 },
} as const;
const TOPOLOGIES = { single: "one redis-server", cluster: "Redis Cluster, 3 masters" } as const;

// --smoke picks the defaults the flags are read with; parseArgs reads it again to refuse a misspelt one.
const base =
  SIZES[process.argv.includes("--smoke") || process.env.BENCH_TENANTS_SMOKE === "1" ? "smoke" : "full"];
type Size = keyof typeof base;
const names = Object.keys(base) as Size[];
const { values } = parseArgs({
  options: {
    smoke: { type: "boolean" },
    redis: { type: "string", default: "single,cluster" },
    note: { type: "string" },
    ...(Object.fromEntries(names.map((name) => [name, { type: "string", default: String(base[name]) }])) as {
      [name in Size]: { type: "string"; default: string };
    }),
  },
});
function refuse(problem: string): never {
  console.error(`tenants benchmark: ${problem}`);
  process.exit(2);
}
const sizes = Object.fromEntries(names.map((name) => [name, Number(values[name])])) as Record<Size, number>;
const wrong = names.find((name) => !Number.isSafeInteger(sizes[name]) || sizes[name] < SIZES.least[name]);
if (wrong) {
  refuse(`--${wrong} takes a whole number of at least ${SIZES.least[wrong]}, not ${values[wrong]}`);
}
const { tenants: N, workers: W, seconds: SECONDS, "lifetime-ms": LIFETIME_MS } = sizes;
const topologies = values.redis.split(",") as (keyof typeof TOPOLOGIES)[];
if (!topologies.every((topology) => topology in TOPOLOGIES)) {
  refuse(`--redis takes single, cluster or both, comma-separated; not ${values.redis}`);
}
const full = topologies.length === 2 && names.every((name) => sizes[name] === SIZES.full[name]);

const WORKER = new URL("./worker.ts", import.meta.url).pathname;
const { prefix: PREFIX, lockTtlMs: LOCK_TTL_MS } = redisStoreDefaults;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (line: string) => console.log(`[tenants] ${line}`);
const line = (x: object) => inspect(x, { breakLength: Infinity });

/**
 * A worker, once it is ready; each request to it is answered by its next message. It ends itself when
 * this process's IPC channel closes, however this process ends.
 */
async function startWorker(config: WorkerConfig) {
  const child = fork(WORKER, [JSON.stringify(config)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? code)),
  );
  // A last message can be read after the exit is reported: it is given a moment to arrive.
  const gone = exited.then(() => sleep(200)).then(() => Promise.reject(new Error("a worker exited")));
  gone.catch(() => undefined);
  const next = async <T extends FromWorker["type"]>(type: T) => {
    const [message] = (await Promise.race([once(child, "message"), gone])) as [FromWorker];
    if (message.type !== type) {
      throw new Error(`a worker said ${message.type} where ${type} was due`);
    }
    return message as Extract<FromWorker, { type: T }>;
  };
  await next("ready");
  return {
    send: (message: ToWorker) => child.send(message),
    next,
    kill: (s: NodeJS.Signals) => child.kill(s),
    exited,
  };
}
type Worker = Awaited<ReturnType<typeof startWorker>>;

type Node = ReturnType<typeof createClient>;
const tenantOf = (key: string) => Number(/\{tenant-(\d+)\}/.exec(key)?.[1] ?? 0);

/** INFO commandstats of every node, summed. */
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

/** Each tenant's token calls (the sandbox's counters) and stored sequence, and Redis's keys by kind. */
async function atRest(sandbox: RunningSandbox, nodes: Node[]) {
  const tenants = Array.from({ length: N + 1 }, (_, i) => {
    const c = sandbox.control.counters(i);
    return {
      exchanges: c.exchanges,
      calls: c.exchanges + c.refreshes,
      reused: c.reusedRefreshTokens,
      rateLimited: c.rateLimitedExchanges,
      sequence: 0,
    };
  });
  // By the key's last part (`tokens`, `lock`); `marked`: sets marked in flight.
  const keys: Record<string, number> = {};
  const add = (kind: string) => {
    keys[kind] = (keys[kind] ?? 0) + 1;
  };
  // SCAN and GET per node: on a cluster each master lists and serves the keys of its own slots.
  for (const node of nodes) {
    for await (const found of node.scanIterator({ MATCH: `${PREFIX}:*`, COUNT: 1000 })) {
      for (const key of found) {
        add(key.slice(key.lastIndexOf(":") + 1));
        if (key.endsWith(":tokens")) {
          const stored = JSON.parse((await node.get(key)) ?? "{}");
          (tenants[tenantOf(key)] ?? { sequence: 0 }).sequence = stored.sequence ?? 0;
          if (typeof stored.refreshToken !== "string") {
            add("marked");
          }
        }
      }
    }
  }
  const each = (of: (t: (typeof tenants)[number]) => number) => tenants.slice(1).map((tenant) => of(tenant));
  const sum = (of: (t: (typeof tenants)[number]) => number) => each(of).reduce((a, b) => a + b, 0);
  return { tenants, keys, each, sum };
}
type AtRest = Awaited<ReturnType<typeof atRest>>;

const beyondFirst = (t: { exchanges: number }) => Math.max(0, t.exchanges - 1);

async function runTopology(topology: keyof typeof TOPOLOGIES) {
  const name = TOPOLOGIES[topology];
  const redis = topology === "cluster" ? await startRedisCluster() : await startRedis();
  const urls = "urls" in redis ? redis.urls : [redis.url];
  // Each tenant its own exchange window (the default, said here because the figures depend on it).
  const sandbox = await startSandbox({
    tenants: N,
    tokenLifetimeMs: LIFETIME_MS,
    exchangeRateLimitScope: "tenant",
    control: { enabled: true },
    faults: { enabled: true },
  });
  const nodes: Node[] = await Promise.all(urls.map((url) => createClient({ url }).connect()));
  const cluster = topology === "cluster";
  const config = { baseUrl: sandbox.mainUrl, redisUrls: urls, cluster, tenants: N, rate: sizes.rate };
  const workers: Worker[] = [];
  const all = emptyStats();
  const scratch = mkdtempSync(join(tmpdir(), "ev-bench-tenants-"));
  const load = (w: Worker, rampStart = 0, rampMs = 0) => w.send({ type: "load", rampStart, rampMs });
  /** The workers ask for `ms` (with `during` run meanwhile), then stop: what they saw, then what is at rest. */
  const phase = async (ms: number, during = async () => {}, rampMs = 0) => {
    const commandsBefore = await commandStats(nodes);
    const rampStart = Date.now() + 100;
    for (const w of workers) {
      load(w, rampStart, rampMs);
    }
    await during();
    await sleep(ms);
    for (const w of workers) {
      w.send({ type: "pause" });
    }
    const stats = emptyStats();
    for (const paused of await Promise.all(workers.map((w) => w.next("paused")))) {
      merge(stats, paused.stats);
    }
    merge(all, stats);
    // INFO's deltas over the phase (INFO itself left out): Redis counts the commands its scripts run too.
    const commands = Object.entries(await commandStats(nodes))
      .map(([command, n]) => [command, n - (commandsBefore[command] ?? 0)] as const)
      .filter(([command, n]) => n > 0 && command !== "info");
    return { stats, commands, ...(await atRest(sandbox, nodes)) };
  };
  try {
    // The cold start, then the sandbox and Redis afresh for the rest.
    const cold = await startWorker(config);
    cold.send({ type: "cold" });
    const coldAnswer = await cold.next("cold");
    merge(all, coldAnswer.stats);
    const afterCold = await atRest(sandbox, nodes);
    cold.kill("SIGTERM");
    await cold.next("closed");
    sandbox.control.reset();
    await Promise.all(nodes.map((node) => node.flushAll()));
    const coldStart = {
      ms: Math.round(coldAnswer.ms),
      served: coldAnswer.served,
      tokenCalls: afterCold.sum((t) => t.calls),
      mostCallsOfATenant: Math.max(...afterCold.each((t) => t.calls)),
      mostOnWire: coldAnswer.mostOnWire,
      rateLimited: afterCold.sum((t) => t.rateLimited),
    };
    say(`${name}: cold start ${line(coldStart)}`);

    // The ramp: tenants come into use over one lifetime, so that their expiries are spread over it.
    for (let i = 0; i < W; i++) {
      workers.push(await startWorker(config));
    }
    const ramp = await phase(LIFETIME_MS + 2_000, undefined, LIFETIME_MS);
    const steady = await phase(SECONDS * 1000);
    const windowCalls = steady.sum((t) => t.calls) - ramp.sum((t) => t.calls);
    const used = steady.tenants.slice(1).filter((t) => t.calls > 0);
    say(`${name}: steady window done, ${steady.stats.requests} requests, ${windowCalls} token calls`);

    // A worker SIGKILLed with a refresh on the wire. The sandbox holds the next refreshes a while, so
    // that the kill finds one sent and unanswered; the held ones of other workers just answer late.
    // Its locks end with their TTL; its marks once a survivor renews the tenant, within a lifetime.
    const wireFile = join(scratch, "on-wire.json");
    const afterKill = await phase(LOCK_TTL_MS + LIFETIME_MS + 2_000, async () => {
      const victim = workers[0] as Worker;
      victim.send({ type: "die", file: wireFile, minAgeMs: 100 });
      let died: unknown;
      void victim.exited.then((how) => {
        died = how;
      });
      while (died === undefined) {
        sandbox.faults.next({ kind: "delay", ms: 1_500, path: "/api/auth/token/refresh", times: 2 * W });
        await Promise.race([victim.exited, sleep(3_000)]);
      }
      if (died !== "SIGKILL") {
        throw new Error(`the worker to kill exited with ${died}`);
      }
      workers[0] = await startWorker(config);
      load(workers[0]);
    });
    const onWire: OnWire[] = JSON.parse(readFileSync(wireFile, "utf8"));
    const wired = new Set(onWire.map((call) => tenantOf(`{${call.tenant}}`)));
    const extra = (a: AtRest, b: AtRest) => b.sum(beyondFirst) - a.sum(beyondFirst);
    const kill = {
      onWire: onWire.length,
      refreshesOnWire: onWire.filter((call) => call.kind === "refresh").length,
      extraExchanges: extra(steady, afterKill),
      extraOutsideWire: afterKill
        .each(beyondFirst)
        .filter((n, at) => !wired.has(at + 1) && n > beyondFirst(steady.tenants[at + 1] ?? { exchanges: 0 }))
        .length,
      locksLeft: afterKill.keys.lock ?? 0,
      marksLeft: afterKill.keys.marked ?? 0,
    };
    say(`${name}: kill done ${line(kill)}`);

    // The rolling restart: each worker in turn stops as a deployment stops it, and a new one starts.
    // A mark left behind would show as an exchange once the tenant is next renewed, within a lifetime.
    let renewalsAtSigterm = 0;
    let drained = true;
    const afterRestart = await phase(LIFETIME_MS + 2_000, async () => {
      for (let i = 0; i < workers.length; i++) {
        (workers[i] as Worker).kill("SIGTERM");
        const closed = await (workers[i] as Worker).next("closed");
        merge(all, closed.stats);
        renewalsAtSigterm += closed.renewalsAtSigterm;
        drained &&= closed.drained;
        workers[i] = await startWorker(config);
        load(workers[i] as Worker);
      }
    });
    return {
      name,
      coldStart,
      requests: all.requests,
      errors: all.errors,
      // From the ramp's start to the steady window's end: token calls after each tenant's first, expiries.
      callsAfterFirst: steady.sum((t) => t.calls) - used.length,
      expiries: used.reduce((sum, t) => sum + Math.max(0, t.sequence - 1), 0),
      tenantsWithExtraCalls: used.filter((t) => t.calls > t.sequence).length,
      renewalsPerTokenCall: steady.stats.renewals / windowCalls,
      expiryWaitMs: spreadOf(steady.stats.expiryWaits),
      redisCommandsPerRenewal: Object.fromEntries(steady.commands.map(([c, n]) => [c, n / windowCalls])),
      keysAtRest: steady.keys,
      kill,
      restart: {
        renewalsAtSigterm,
        drained,
        extraExchanges: extra(afterKill, afterRestart),
        locksLeft: afterRestart.keys.lock ?? 0,
        marksLeft: afterRestart.keys.marked ?? 0,
      },
      reusedRefreshTokens: afterRestart.sum((t) => t.reused),
    };
  } finally {
    for (const w of workers) {
      w.kill("SIGTERM");
    }
    await Promise.all(workers.map((w) => w.exited));
    await Promise.all(nodes.map((node) => node.close().catch(() => undefined)));
    await sandbox.stop();
    await redis.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const started = performance.now();
// The bounds a user gets (maxTenants raised only for a run of more tenants, as such a service would).
const bounds = {
  maxTenants: Math.max(N, poolDefaults.maxTenants),
  renewalsAtOnce: poolDefaults.renewalsAtOnce,
  exchangeBudget: "none: each tenant's own exchangesPerMinute",
};
say(`${line(sizes)} on ${topologies.join(" then ")}; the pool's bounds ${line(bounds)}`);
const figures: Awaited<ReturnType<typeof runTopology>>[] = [];
for (const topology of topologies) {
  figures.push(await runTopology(topology));
}
const result = {
  sizes,
  bounds,
  ...(full ? {} : { note: `Not the full run's sizes${values.note ? `: ${values.note}` : "."}` }),
  topologies: figures,
  seconds: Math.round((performance.now() - started) / 1000),
};
/** What results/tenants.json holds, for src/write-benchmarks.ts. */
export type TenantsResult = typeof result;
const out = new URL("../../results/tenants.json", import.meta.url);
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(inspect(result, { depth: null, colors: process.stdout.isTTY }));
say(`figures written to ${out.pathname}`);
