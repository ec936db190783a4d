// The figures of the many-tenants benchmark as main.ts stores them (results/tenants.json) and as
// Markdown: main.ts prints the section, src/write-benchmarks.ts puts it into BENCHMARKS.md.

import { spread } from "../spread.ts";
import type { OnWire } from "./protocol.ts";

/** Waits in ms over every caller of a phase: nearest-rank percentiles of the sorted waits. */
export interface Waits {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export interface TopologyFigures {
  name: string;
  steady: {
    seconds: number;
    requests: number;
    callerErrors: Record<string, number>;
    expiredTokens: number;
    /** From the start to the end of the steady window, every tenant: token calls and stored generations. */
    tokenCalls: number;
    generations: number;
    tenantsUsed: number;
    /** Tenants whose token calls outnumber their generations, and the most extra calls of one. */
    tenantsWithExtraCalls: number;
    mostExtraCalls: number;
    /** Generations after the first: each followed an expiry. Min, median and max over the tenants. */
    expiries: { total: number; min: number; median: number; max: number };
    reusedRefreshTokens: number;
    rateLimitedExchanges: number;
    expiryWaits: Waits;
    firstWaits: Waits;
    /** Per worker: heapUsed after GC, tenants held, and the heap of the same worker before any tenant. */
    heap: { heapUsed: number; held: number; idle: number }[];
    /** INFO commandstats deltas over the steady window (INFO itself left out), all nodes summed. */
    redisCommands: Record<string, number>;
    /** What the workers' stores sent over the same window, by command. */
    sentCommands: Record<string, number>;
    /** Token calls (the sandbox's) and renewals run under a lock (the workers') in the same window. */
    windowTokenCalls: number;
    windowRenewals: number;
  };
  kill: {
    onWire: OnWire[];
    /** Locks of the tenants on the wire still in Redis right after the kill (their TTL ends them). */
    locksAtKill: number;
    extraExchanges: number;
    /** Tenants that exchanged again without a token call of theirs on the wire at the kill. */
    extraOutsideWire: number;
    /** Token calls whose answer no stored generation holds. */
    lostAnswers: number;
    reusedRefreshTokens: number;
    locksLeft: number;
    marksLeft: number;
    callerErrors: Record<string, number>;
    waits: Waits;
    seconds: number;
  };
  restart: {
    workers: number;
    renewalsAtSigterm: number;
    allDrained: boolean;
    extraExchanges: number;
    lostAnswers: number;
    reusedRefreshTokens: number;
    locksLeft: number;
    marksLeft: number;
    callerErrors: Record<string, number>;
    waits: Waits;
    /** The new workers' first call of each tenant: a session that another process stored, resumed. */
    firstWaits: Waits;
    seconds: number;
  };
}

export interface TenantsResult {
  date: string;
  commit: string;
  machine: string;
  sizes: {
    tenants: number;
    workers: number;
    tokenLifetimeMs: number;
    steadySeconds: number;
    ratePerWorker: number;
    lockTtlMs: number;
  };
  /** Set when the sizes are below the defaults (10,000 tenants, 4 workers): why. */
  note?: string;
  topologies: TopologyFigures[];
  totalSeconds: number;
}

const int = (x: number) => Math.round(x).toLocaleString("en-US");
const ms = (x: number) => (x < 10 ? `${x.toFixed(1)} ms` : `${int(x)} ms`);
const pct = (part: number, whole: number) => (whole === 0 ? "0 %" : `${((100 * part) / whole).toFixed(1)} %`);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;
const sum = (record: Record<string, number>) => Object.values(record).reduce((a, b) => a + b, 0);
/** median [lowest–highest] over the workers. */
const overWorkers = spread;
const errors = (record: Record<string, number>, of?: number) => {
  const total = sum(record);
  const codes = Object.entries(record).map(([code, n]) => `${code} ${int(n)}`);
  return `${int(total)}${of === undefined ? "" : ` of ${int(of)} requests`}${codes.length ? ` (${codes.join(", ")})` : ""}`;
};
const waits = (w: Waits) =>
  w.count === 0 ? "none waited" : `${ms(w.p50)} / ${ms(w.p99)} (max ${ms(w.max)}, ${int(w.count)} waits)`;

/** Commands per token call, the five most frequent beside. */
function perCall(commands: Record<string, number>, tokenCalls: number): string {
  const top = Object.entries(commands)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([name, n]) => `${name} ${(n / tokenCalls).toFixed(1)}`);
  return `${(sum(commands) / tokenCalls).toFixed(1)} (${top.join(", ")})`;
}

/** The figure rows, one column per topology. */
function rows(t: TopologyFigures[]): [string, ...string[]][] {
  const each = (f: (x: TopologyFigures) => string): string[] => t.map(f);
  return [
    [
      "token calls per tenant per expiry (must be 1)",
      ...each(({ steady: s }) => {
        const perExpiry = s.expiries.total === 0 ? 0 : (s.tokenCalls - s.tenantsUsed) / s.expiries.total;
        return `**${perExpiry.toFixed(3)}**: ${int(s.tokenCalls - s.tenantsUsed)} calls for ${int(s.expiries.total)} expiries; tenants with an extra call: ${int(s.tenantsWithExtraCalls)}`;
      }),
    ],
    [
      "expiries per tenant, median [fewest–most]",
      ...each(({ steady: s }) => `${s.expiries.median} [${s.expiries.min}–${s.expiries.max}]`),
    ],
    [
      "refresh tokens presented twice (must be 0)",
      ...each(
        (x) =>
          `**${int(x.steady.reusedRefreshTokens + x.kill.reusedRefreshTokens + x.restart.reusedRefreshTokens)}**`,
      ),
    ],
    [
      "caller errors (must be 0)",
      ...each(
        ({ steady: s }) =>
          `**${errors(s.callerErrors, s.requests)}**; expired tokens handed out: ${int(s.expiredTokens)}`,
      ),
    ],
    [
      "added wait across an expiry, p50 / p99",
      ...each(
        ({ steady: s }) => `${waits(s.expiryWaits)}; ${pct(s.expiryWaits.count, s.requests)} of requests`,
      ),
    ],
    [
      "wait on a tenant's first use in a worker (its first exchange included), p50 / p99",
      ...each(({ steady: s }) => waits(s.firstWaits)),
    ],
    [
      "heap per tenant held (heapUsed after GC ÷ tenants), median [lowest–highest worker]",
      ...each(({ steady: s }) =>
        overWorkers(
          s.heap.map((h) => h.heapUsed / h.held),
          kib,
        ),
      ),
    ],
    [
      "of which the tenants' ((heapUsed − an idle worker's) ÷ tenants)",
      ...each(({ steady: s }) =>
        overWorkers(
          s.heap.map((h) => (h.heapUsed - h.idle) / h.held),
          kib,
        ),
      ),
    ],
    [
      "Redis commands per renewal (token call), INFO commandstats (scripts' own commands included)",
      ...each(
        ({ steady: s }) =>
          `${perCall(s.redisCommands, s.windowTokenCalls)}; ${int(s.windowTokenCalls)} token calls in ${s.seconds} s`,
      ),
    ],
    [
      "… of which sent by the stores",
      ...each(
        ({ steady: s }) =>
          `${perCall(s.sentCommands, s.windowTokenCalls)}; the workers ran ${(s.windowRenewals / s.windowTokenCalls).toFixed(2)} renewals under the lock per token call`,
      ),
    ],
    [
      "SIGKILL mid-renewal: token calls on the wire",
      ...each(({ kill: k }) => {
        const refreshes = k.onWire.filter((c) => c.kind === "refresh").length;
        return `${k.onWire.length} (${refreshes} refreshes), their locks left at the kill: ${k.locksAtKill}`;
      }),
    ],
    [
      "… what it lost: exchanges beyond the first per tenant; answers lost",
      ...each(
        ({ kill: k }) =>
          `**${k.extraExchanges}**; ${k.lostAnswers} (tenants that exchanged again without a call on the wire: ${k.extraOutsideWire})`,
      ),
    ],
    [
      "… locks left, sets marked in flight (after one lifetime)",
      ...each(({ kill: k }) => `**${k.locksLeft}**, **${k.marksLeft}**`),
    ],
    [
      "… caller errors; survivors' wait p50 / p99",
      ...each(({ kill: k }) => `${errors(k.callerErrors)}; ${waits(k.waits)}`),
    ],
    [
      "rolling restart (SIGTERM → pool.close(), Redis quit, a new worker), each worker in turn",
      ...each(
        ({ restart: r }) =>
          `${r.workers} workers; renewals under way at SIGTERM: ${r.renewalsAtSigterm}, ${r.allDrained ? "all drained" : "**not all drained**"}`,
      ),
    ],
    [
      "… what it lost: exchanges beyond the first per tenant; answers lost",
      ...each(({ restart: r }) => `**${r.extraExchanges}**; ${r.lostAnswers}`),
    ],
    [
      "… locks left, sets marked in flight",
      ...each(({ restart: r }) => `**${r.locksLeft}**, **${r.marksLeft}**`),
    ],
    [
      "… caller errors; wait p50 / p99",
      ...each(({ restart: r }) => `${errors(r.callerErrors)}; ${waits(r.waits)}`),
    ],
    [
      "… a tenant's first call in a new worker (its session resumed from Redis), p50 / p99",
      ...each(({ restart: r }) => waits(r.firstWaits)),
    ],
  ];
}

/** The "Many tenants" section of BENCHMARKS.md's figures (without its heading). */
export function tenantsSection(result: TenantsResult): string {
  const { sizes } = result;
  const head = result.topologies.map((t) => t.name);
  return [
    `Run ${result.date} UTC, commit ${result.commit}, on ${result.machine}; ${Math.round(result.totalSeconds)} s in all.`,
    `Sizes: ${int(sizes.tenants)} tenants, ${sizes.workers} worker processes, access tokens living ${sizes.tokenLifetimeMs / 1000} s, a steady window of ${sizes.steadySeconds} s, ${int(sizes.ratePerWorker)} getAccessToken() calls a second per worker (a random tenant each), lock TTL ${sizes.lockTtlMs / 1000} s.`,
    ...(result.note ? ["", `**${result.note}**`] : []),
    "",
    `| figure | ${head.join(" | ")} |`,
    `|---|${head.map(() => "---").join("|")}|`,
    ...rows(result.topologies).map((cells) => `| ${cells.join(" | ")} |`),
  ].join("\n");
}
