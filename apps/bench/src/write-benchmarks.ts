// Writes the figures of a `pnpm bench` run into BENCHMARKS.md, between its figures markers: vitest
// bench's JSON report (results/vitest.json), size-limit's (results/sizes.json), the sandbox under load
// (results/sandbox.json, src/sandbox-load.ts) and the many-tenants step's (results/tenants.json,
// src/tenants/main.ts). The one writer of the bench's Markdown. Each row of a comparison is the median
// over the rounds of a test (src/rounds.ts) of tinybench's median latency, with the lowest and highest
// round; each ratio is taken within a round, to the row named in the test's meta.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, freemem, loadavg, release, totalmem } from "node:os";
import { NODE_FLOOR, TOKEN_AIM, TOKEN_FLOOR, TOKEN_ROW } from "./cli-rows.ts";
import { NAMES, OURS } from "./peers.ts";
import { ratiosTo, SANDBOX_AIM, type SandboxLoad, sandboxLoadTable } from "./sandbox-load.ts";
import { median, showSpread, spread } from "./spread.ts";
import type { TenantsResult } from "./tenants/main.ts";

interface Task {
  name: string;
  latency: { p50: number };
}
interface TestResult {
  fullName: string;
  meta: { reference?: string };
  benchmarks?: { tasks: Task[] }[];
}

const at = (file: string) => new URL(`../${file}`, import.meta.url);
const report = JSON.parse(readFileSync(at("results/vitest.json"), "utf8"));
const sizes: { name: string; size: number; sizeLimit?: number; passed: boolean }[] = JSON.parse(
  readFileSync(at("results/sizes.json"), "utf8"),
);
const tenants: TenantsResult = JSON.parse(readFileSync(at("results/tenants.json"), "utf8"));
const sandbox: SandboxLoad = JSON.parse(readFileSync(at("results/sandbox.json"), "utf8"));
const tests: TestResult[] = report.testResults
  .flatMap((file: { assertionResults: TestResult[] }) => file.assertionResults)
  .filter((test: TestResult) => test.benchmarks?.length);

/**
 * How many rounds the run had, and whether it is a full run: a verdict needs at least this many
 * rounds (one round has no spread), and only a full run (the default many-tenants size too) may be
 * written into BENCHMARKS.md; any other run is written beside the results, headed as what it is.
 */
const LEAST_ROUNDS_FOR_A_VERDICT = 3;
const rounds = Math.min(...tests.map((test) => test.benchmarks?.length ?? 0), sandbox.rounds);
const full = rounds >= LEAST_ROUNDS_FOR_A_VERDICT && tenants.note === undefined;

const time = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const ratio = (x: number) => `${x.toFixed(2)}×`;

/** One figure a round: `of` read from each round's tasks. */
function perRound(test: TestResult, of: (p50: (name: string) => number) => number): number[] {
  return (test.benchmarks ?? []).map(({ tasks }) =>
    of((name) => {
      const task = tasks.find((t) => t.name === name);
      if (!task) {
        throw new Error(`${test.fullName}: no row ${name} in a round`);
      }
      return task.latency.p50;
    }),
  );
}

function table(test: TestResult): string {
  const reference = test.meta.reference as string;
  const names = (test.benchmarks?.[0]?.tasks ?? []).map((t) => t.name);
  const rows = names.map((name) => ({
    name,
    times: perRound(test, (p50) => p50(name)),
    ratios: perRound(test, (p50) => p50(name) / p50(reference)),
  }));
  rows.sort((a, b) => median(a.times) - median(b.times));
  return [
    `| ${test.fullName.replace(/ > /g, ", ")} | median time [lowest–highest round] | ratio to ${reference} |`,
    "|---|---|---|",
    ...rows.map((r) => `| ${r.name} | ${spread(r.times, time)} | ${spread(r.ratios, ratio)} |`),
  ].join("\n");
}

/** A verdict, or why there is none: one round has no spread, and a few give no verdict. */
const verdict = (holds: boolean) =>
  rounds < LEAST_ROUNDS_FOR_A_VERDICT
    ? `no verdict (${rounds} round${rounds === 1 ? "" : "s"}; at least ${LEAST_ROUNDS_FOR_A_VERDICT} give one)`
    : `**${holds ? "holds" : "does not hold"}**`;

/** The issue's budget for each of this SDK's rows, as figures: whether it holds is printed, not tested. */
function budget(test: TestResult): string[] {
  const loopback = test.fullName.includes("loopback");
  return OURS.flatMap((ours) => {
    const against = (peer: string, rule?: "not slower" | "within the noise") => {
      const xs = perRound(test, (p50) => p50(ours) / p50(peer));
      if (rule === undefined) {
        return `- ${ours} vs ${peer}: ${spread(xs, ratio)} (a figure: the floor has no rule)`;
      }
      const m = median(xs);
      // Within the noise: the median is no farther from 1 than half the spread of its rounds.
      const holds =
        rule === "not slower" ? m <= 1 : Math.abs(m - 1) <= (Math.max(...xs) - Math.min(...xs)) / 2;
      return `- ${ours} vs ${peer}: ${spread(xs, ratio)}; ${rule}: ${verdict(holds)}`;
    };
    return [
      against(NAMES.ky, "not slower"),
      against(NAMES.openai, "not slower"),
      ...(loopback ? [against(NAMES.openapiFetch, "within the noise"), against(NAMES.floor)] : []),
    ];
  });
}

/** `engage-voice token` against `node -e 0` and against its ten-line floor, each ratio within a pair. */
function tokenAim(test: TestResult): string[] {
  const vs = (reference: string) => perRound(test, (p50) => p50(TOKEN_ROW) / p50(reference));
  return [
    `- ${TOKEN_ROW} vs ${NODE_FLOOR}: ${spread(vs(NODE_FLOOR), ratio)}; at most ${TOKEN_AIM}×: ${verdict(median(vs(NODE_FLOOR)) <= TOKEN_AIM)}`,
    `- ${TOKEN_ROW} vs ${TOKEN_FLOOR}: ${spread(vs(TOKEN_FLOOR), ratio)} (a figure); the script vs ${NODE_FLOOR}: ${spread(
      perRound(test, (p50) => p50(TOKEN_FLOOR) / p50(NODE_FLOOR)),
      ratio,
    )}`,
  ];
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;
const sizeTable = [
  "| bundle (esbuild, ESM, minified, browser) | size | budget |",
  "|---|---|---|",
  ...sizes.map(
    (s) =>
      `| ${s.name} | ${kB(s.size)} | ${s.sizeLimit === undefined ? "—" : `${kB(s.sizeLimit)}${s.passed ? "" : " **over**"}`} |`,
  ),
].join("\n");

const int = (x: number) => Math.round(x).toLocaleString("en-US");
const sum = (record: Record<string, number>) => Object.values(record).reduce((a, b) => a + b, 0);
const codes = (record: Record<string, number>) =>
  Object.keys(record).length === 0
    ? ""
    : ` (${Object.entries(record)
        .map(([k, n]) => `${k} ${int(n)}`)
        .join(", ")})`;

/** The "Many tenants" section: one row a figure, one column a topology. */
function tenantsSection({ sizes, bounds, note, topologies }: TenantsResult): string {
  type Topology = TenantsResult["topologies"][number];
  const rows: [string, (t: Topology) => string][] = [
    [
      `cold start: ${int(sizes.tenants)} tenants' first calls at once in one new pool, Redis empty, until each has a token (one token call each; at most ${bounds.renewalsAtOnce} at once)`,
      ({ coldStart: c }) =>
        `**${int(c.ms)} ms**, ${int(c.served)} served; ${int(c.tokenCalls)} token calls (most of one tenant ${c.mostCallsOfATenant}), at most ${c.mostOnWire} at once; rate-limited exchanges ${c.rateLimited}`,
    ],
    [
      "token calls per tenant per expiry (must be 1)",
      (t) =>
        `**${(t.expiries === 0 ? 0 : t.callsAfterFirst / t.expiries).toFixed(3)}**: ${int(t.callsAfterFirst)} calls for ${int(t.expiries)} expiries; tenants with an extra call: ${int(t.tenantsWithExtraCalls)}`,
    ],
    [
      "renewals under a tenant's lock per token call (the workers')",
      (t) => t.renewalsPerTokenCall.toFixed(2),
    ],
    [
      "added wait across an expiry, median [lowest–highest]",
      ({ expiryWaitMs: w }) => `${showSpread(w, (ms) => `${ms.toFixed(1)} ms`)} over ${int(w.count)} waits`,
    ],
    [
      "caller errors (must be 0)",
      (t) => `**${int(sum(t.errors))} of ${int(t.requests)} requests**${codes(t.errors)}`,
    ],
    [
      "Redis commands per renewal (INFO commandstats, the scripts' own commands included)",
      ({ redisCommandsPerRenewal: c }) =>
        `${sum(c).toFixed(1)} (${Object.entries(c)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([name, n]) => `${name} ${n.toFixed(1)}`)
          .join(", ")})`,
    ],
    [
      "keys at rest after the steady window, by kind (`marked`: token sets marked in flight)",
      (t) => `${int(sum(t.keysAtRest) - (t.keysAtRest.marked ?? 0))}${codes(t.keysAtRest)}`,
    ],
    [
      "SIGKILL with a refresh on the wire: token calls on the wire; exchanges again (of tenants with none on the wire)",
      ({ kill: k }) =>
        `${k.onWire}, refreshes ${k.refreshesOnWire}; **${k.extraExchanges}** (${k.extraOutsideWire})`,
    ],
    [
      "… locks left, sets marked in flight, a lifetime later (must be 0)",
      ({ kill: k }) => `**${k.locksLeft}**, **${k.marksLeft}**`,
    ],
    [
      `rolling restart of the ${sizes.workers} workers (SIGTERM: pool.close(), Redis quit): renewals under way, drained; exchanges again (must be 0)`,
      ({ restart: r }) =>
        `${r.renewalsAtSigterm}, ${r.drained ? "all drained" : "**not all drained**"}; **${r.extraExchanges}**`,
    ],
    [
      "… locks left, sets marked in flight (must be 0)",
      ({ restart: r }) => `**${r.locksLeft}**, **${r.marksLeft}**`,
    ],
    ["refresh tokens presented twice, all phases (must be 0)", (t) => `**${int(t.reusedRefreshTokens)}**`],
  ];
  return [
    `${int(sizes.tenants)} tenants, ${sizes.workers} worker processes, access tokens living ${sizes["lifetime-ms"] / 1000} s, a steady window of ${sizes.seconds} s, ${int(sizes.rate)} getAccessToken() calls a second per worker (a random tenant each). The pool's bounds, a user's defaults: maxTenants ${int(bounds.maxTenants)}, renewalsAtOnce ${bounds.renewalsAtOnce}, exchangeBudget ${bounds.exchangeBudget}.`,
    ...(note ? ["", `**${note}**`] : []),
    "",
    `| figure | ${topologies.map((t) => t.name).join(" | ")} |`,
    `|---|${topologies.map(() => "---").join("|")}|`,
    ...rows.map(([label, cell]) => `| ${label} | ${topologies.map(cell).join(" | ")} |`),
  ].join("\n");
}

const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();
const dirty = git("status", "--porcelain").length > 0 ? " (the work tree had uncommitted changes)" : "";
const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GiB`;
const machine = `${cpus()[0]?.model.trim()}, ${availableParallelism()} cores, ${gib(totalmem())} (${gib(freemem())} free), load average ${loadavg()[0]?.toFixed(2)} at the end; Node ${process.version}, linux ${release()}`;

const perCall = tests.filter((t) => t.meta.reference === NAMES.floor);
const figures = [
  `${full ? "Last full run" : "A quick run, not a full one (it is never written into BENCHMARKS.md)"}: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, commit ${git("rev-parse", "--short", "HEAD")}${dirty}, on ${machine}; ${rounds} round${rounds === 1 ? "" : "s"} a comparison.`,
  "",
  "### Per call",
  "",
  ...perCall.flatMap((t) => [table(t), ""]),
  "The issue's budget for each of this SDK's rows (ratio of its time to the peer's, median [lowest–highest round]):",
  "",
  ...perCall.flatMap((t) => [`${t.fullName.replace(/ > /g, ", ")}:`, "", ...budget(t), ""]),
  "### Renewal coalescing",
  "",
  ...tests.filter((t) => t.fullName.includes("callers")).flatMap((t) => [table(t), ""]),
  "### The command line",
  "",
  ...tests.filter((t) => t.meta.reference === NODE_FLOOR).flatMap((t) => [table(t), "", ...tokenAim(t), ""]),
  "### The sandbox under load",
  "",
  sandboxLoadTable(sandbox),
  "",
  ...sandbox.rows.map((row) => {
    const xs = ratiosTo(row, "bare");
    return `- ${row.connections} connections, sandbox vs bare Hono per CPU-second: ${spread(xs, ratio)}; at least ${SANDBOX_AIM}×: ${verdict(median(xs) >= SANDBOX_AIM)}`;
  }),
  "",
  "### Bundle sizes",
  "",
  sizeTable,
  "",
  "### Many tenants",
  "",
  tenantsSection(tenants),
].join("\n");

if (!full) {
  const quick = at("results/BENCHMARKS.quick.md");
  writeFileSync(quick, `${figures}\n`);
  console.log(`${figures}\n\nA quick run: written to ${quick.pathname}, BENCHMARKS.md left as it was.`);
  process.exit(0);
}
const file = at("../../BENCHMARKS.md");
const text = readFileSync(file, "utf8");
const [head, rest] = text.split("<!-- figures:start -->");
const tail = rest?.split("<!-- figures:end -->")[1];
if (head === undefined || tail === undefined) {
  throw new Error("BENCHMARKS.md has no <!-- figures:start --> … <!-- figures:end --> block");
}
writeFileSync(file, `${head}<!-- figures:start -->\n${figures}\n<!-- figures:end -->${tail}`);
console.log(`BENCHMARKS.md: figures of this run written\n\n${figures}`);
