// `pnpm --filter @engage-voice/bench bench`: runs every section, prints each table as it is done, and
// writes the figures of this run to apps/bench/results.json and BENCHMARKS.md, rendered from them.
//   --only=overhead,http,coalescing,size,cli,sandbox,pipeline run some sections (neither file is written)
//   --no-write                                      print only
//   --rounds=N                                      rounds of the per-call tables (overhead, http)
//   --pairs=N                                       pairs of batches behind each per-call comparison
//   --clock=cpu                                     time the stubbed per-call section in CPU time, not wall time

import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { authClientContender, authContender, authFetchContender, coalescingSubject } from "./auth-rows.ts";
import { checkBudgets, formatBudgetResults, loadBudgets } from "./budget.ts";
import { measureCliSizes, measureStart } from "./cli.ts";
import { measureCoalescing } from "./coalescing.ts";
import { type Contender, contenders, headerMiddleware, NAMES, type Target, verify } from "./contenders.ts";
import { criticalPathOf } from "./critical-path.ts";
import { startLocalServer } from "./local-server.ts";
import {
  addedMicros,
  type Measurement,
  type MeasureOptions,
  measure,
  type PairOptions,
  pairedCost,
} from "./measure.ts";
import { runStep, STEPS } from "./pipeline.ts";
import {
  renderBenchmarks,
  renderCli,
  renderCoalescing,
  renderCriticalPath,
  renderHttp,
  renderOverhead,
  renderPipeline,
  renderSandbox,
  renderSizes,
} from "./render.ts";
import { describeMachine, loadAtStart, machineTable } from "./report.ts";
import {
  BENCHMARKS_FILE,
  type CallSection,
  COMMAND,
  type Comparison,
  type NotMeasured,
  type PipelineSection,
  type Results,
  writeResults,
} from "./results.ts";
import { measureSandboxLoad } from "./sandbox-load.ts";
import { ratiosTo } from "./sandbox-table.ts";
import { measureAppRows, measureSizeRows } from "./size-rows.ts";
import { ACCOUNTS_BODY, BASE_URL, stubServer } from "./stub.ts";
import { type Spread, spreadOf, TIME_BUDGETS, type TimeBudget, verdictOf } from "./verdict.ts";

const SECTIONS = ["overhead", "http", "coalescing", "size", "cli", "sandbox", "pipeline"] as const;
type Section = (typeof SECTIONS)[number];

// Many short rounds rather than a few long ones: the verdicts compare per-round ratios, and their
// spread over the rounds is what tells a result from the noise of a shared machine.
const OVERHEAD: MeasureOptions = { rounds: 25, time: 60, warmupTime: 15 };
const HTTP: MeasureOptions = { rounds: 7, time: 150, warmupTime: 30 };
/** The verdicts' paired measurement: a few seconds of calls per path on a quiet machine. */
const PAIRS: Omit<PairOptions, "clock"> = { pairs: 201, batch: 200 };
/** The authorised paths held to the call budget of TIME_BUDGETS, each with the words of its verdict. */
const AUTHORISED = [
  [NAMES.clientAuth, "@engage-voice/client + auth middleware"],
  [NAMES.clientAuthFetch, "@engage-voice/client with fetch: auth.fetch"],
  [NAMES.authClient, "auth.client()"],
] as const;
const CONCURRENCY = [
  { calls: 1, expiries: 200 },
  { calls: 100, expiries: 20 },
  { calls: 10_000, expiries: 3 },
] as const;

function usage(problem: string): never {
  console.error(
    `${problem}\nUsage: bench [--only=${SECTIONS.join(",")}] [--no-write] [--rounds=N] [--pairs=N] [--clock=wall|cpu]`,
  );
  process.exit(2);
}

let values: {
  only?: string | undefined;
  "no-write"?: boolean | undefined;
  rounds?: string | undefined;
  pairs?: string | undefined;
  clock?: string | undefined;
};
try {
  ({ values } = parseArgs({
    options: {
      only: { type: "string" },
      "no-write": { type: "boolean", default: false },
      rounds: { type: "string" },
      pairs: { type: "string" },
      clock: { type: "string" },
    },
  }));
} catch (error) {
  usage((error as Error).message);
}
if (values.rounds !== undefined) {
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 3 || rounds > 1000) {
    usage(`--rounds must be a whole number from 3 to 1000, not ${JSON.stringify(values.rounds)}`);
  }
  OVERHEAD.rounds = rounds;
  HTTP.rounds = rounds;
}
if (values.pairs !== undefined) {
  const pairs = Number(values.pairs);
  if (!Number.isInteger(pairs) || pairs < 3 || pairs > 10_000) {
    usage(`--pairs must be a whole number from 3 to 10000, not ${JSON.stringify(values.pairs)}`);
  }
  PAIRS.pairs = pairs;
}
if (values.clock !== undefined) {
  if (values.clock !== "wall" && values.clock !== "cpu") {
    usage(`--clock must be wall or cpu, not ${JSON.stringify(values.clock)}`);
  }
  // The HTTP section waits on another process: only wall time counts there.
  OVERHEAD.clock = values.clock;
}
const only = values.only?.split(",").map((s) => s.trim()) ?? [...SECTIONS];
const unknown = only.filter((s) => !(SECTIONS as readonly string[]).includes(s));
if (unknown.length > 0) {
  usage(`Unknown section ${unknown.join(", ")}; the sections are ${SECTIONS.join(", ")}`);
}
const runs = (section: Section) => only.includes(section);

const started = performance.now();
const machine = describeMachine();
const load = loadAtStart();
const skipped: NotMeasured = { notMeasured: "not run (--only)" };
const results: Results = {
  command: COMMAND,
  date: machine.date,
  seconds: 0,
  machine,
  load,
  overhead: skipped,
  http: skipped,
  coalescing: skipped,
  sizes: [],
  app: skipped,
  cli: skipped,
  pipeline: skipped,
  sandbox: skipped,
};
const print = (markdown: string) => console.log(`${markdown}\n`);

/** Runs `steps` one after the other: timings must not overlap. */
async function sequence<T>(steps: readonly (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = [];
  for (const step of steps) {
    out.push(await step());
  }
  return out;
}

print(`## Machine\n\n${machineTable(machine, load)}`);

/** The cost `name` adds over `reference`; judged when it is held to a budget. */
function judged(
  label: string,
  name: string,
  reference: string,
  added: Spread,
  micros: number,
  budget?: TimeBudget,
): Comparison {
  const comparison: Comparison = { label, name, reference, added, addedMicros: micros };
  if (budget !== undefined) {
    comparison.budget = budget;
    comparison.verdict = verdictOf(added, TIME_BUDGETS[budget]);
  }
  return comparison;
}

/** Which of `name` and `reference` the table could not time, if either. */
function notTimed(measurement: Measurement, name: string, reference: string): string | undefined {
  const timed = (row: string) => measurement.rows.find((r) => r.name === row)?.microsPerCall !== undefined;
  return [name, reference].find((row) => !timed(row));
}

/** The cost `name` adds over `reference` from the table's own rounds: their per-round ratios. */
function fromRounds(
  measurement: Measurement,
  label: string,
  name: string,
  reference: string,
): CallSection["comparisons"][number] {
  const missing = notTimed(measurement, name, reference);
  if (missing !== undefined) {
    return { label, notMeasured: `${missing} did not run` };
  }
  const added = spreadOf(
    measurement.rounds.map((r) => (r.get(name) as number) / (r.get(reference) as number) - 1),
  );
  return judged(label, name, reference, added, addedMicros(measurement, name, reference));
}

async function callSection(
  target: Target,
  options: MeasureOptions,
  comparisons: (m: Measurement, list: Contender[]) => Promise<CallSection["comparisons"]>,
  pairs?: PairOptions,
): Promise<CallSection> {
  const list = await contenders(target, [
    headerMiddleware(target),
    await authContender(target),
    await authFetchContender(target),
    await authClientContender(target),
  ]);
  await verify(list, JSON.parse(ACCOUNTS_BODY));
  const measurement = await measure(list, options);
  return {
    settings: pairs ? { ...options, pairs } : options,
    rows: measurement.rows,
    comparisons: await comparisons(measurement, list),
  };
}

if (runs("overhead")) {
  const { fetch } = stubServer();
  const pairs: PairOptions = { ...PAIRS, clock: OVERHEAD.clock ?? "wall" };
  // Every comparison of this section comes from pairs of batches, each half seeing the same state of
  // the machine; the table's rounds, seconds apart, spread too widely to judge the call budget.
  const paired = async (
    m: Measurement,
    list: Contender[],
    label: string,
    name: string,
    budget?: TimeBudget,
  ): Promise<CallSection["comparisons"][number]> => {
    const missing = notTimed(m, name, NAMES.openapiFetch);
    const call = (row: string) => list.find((c) => c.name === row)?.call;
    const [other, bare] = [call(name), call(NAMES.openapiFetch)];
    if (missing !== undefined || !other || !bare) {
      return { label, notMeasured: `${missing ?? name} did not run` };
    }
    const added = await pairedCost(bare, other, pairs);
    return judged(label, name, NAMES.openapiFetch, added, added.micros, budget);
  };
  results.overhead = await callSection(
    { baseUrl: BASE_URL, fetch, transport: "stub" },
    OVERHEAD,
    async (m, list) => [
      ...(await sequence(
        AUTHORISED.map(
          ([name, label]) =>
            () =>
              paired(m, list, label, name, "call"),
        ),
      )),
      await paired(m, list, "@engage-voice/client without middleware", NAMES.client),
      await paired(m, list, "with a one-line header middleware", NAMES.clientHeader),
    ],
    pairs,
  );
  print(renderOverhead(results.overhead));
}

if (runs("http")) {
  const server = await startLocalServer();
  try {
    results.http = await callSection(
      { baseUrl: server.url, fetch: globalThis.fetch, transport: "http" },
      HTTP,
      async (m) => [
        fromRounds(m, "the client with the auth middleware", NAMES.clientAuth, NAMES.openapiFetch),
      ],
    );
  } finally {
    await server.stop();
  }
  print(renderHttp(results.http));
}

if (runs("coalescing")) {
  const measured = [];
  let reason: string | undefined;
  for (const { calls, expiries } of CONCURRENCY) {
    const subject = await coalescingSubject();
    if (typeof subject === "string") {
      reason = subject;
      break;
    }
    measured.push(await measureCoalescing(subject, calls, expiries));
  }
  results.coalescing = reason ? { notMeasured: reason } : { results: measured };
  print(renderCoalescing(results.coalescing));
}

if (runs("size")) {
  results.sizes = await measureSizeRows();
  results.app = await measureAppRows();
  const budgets = await loadBudgets();
  console.log(formatBudgetResults(checkBudgets(results.sizes, budgets)).join("\n"));
  print(renderSizes(results.sizes, budgets, results.app));
}

if (runs("cli")) {
  const start = await measureStart();
  results.cli = {
    start,
    sizes: await measureCliSizes(),
    verdict: verdictOf(start.tokenRatio, TIME_BUDGETS.tokenStart),
  };
  print(renderCli(results.cli));
}

if (runs("sandbox")) {
  const load = await measureSandboxLoad();
  results.sandbox = {
    load,
    verdicts: load.rows.map((row) => {
      const bareOverSandbox = spreadOf(ratiosTo(row, "bare").map((ratio) => 1 / ratio));
      return {
        connections: row.connections,
        bareOverSandbox,
        verdict: verdictOf(bareOverSandbox, TIME_BUDGETS.sandboxLoad),
      };
    }),
  };
  print(renderSandbox(results.sandbox));
}

if (runs("pipeline")) {
  const steps = [];
  let summary: { step: string; file: string } | undefined;
  for (const step of STEPS) {
    const result = await runStep(step);
    const { tail, summary: file, ...kept } = result;
    steps.push(kept);
    if (file && !summary) {
      summary = { step: step.name, file };
    }
    if (tail) {
      console.error(`${step.name} failed:\n${tail}`);
    }
  }
  const section: PipelineSection | NotMeasured = summary
    ? { steps, criticalPathOf: summary.step, criticalPath: await criticalPathOf(summary.file) }
    : { notMeasured: "turbo wrote no run summary" };
  results.pipeline = section;
  print(renderPipeline(section));
  print(renderCriticalPath(section, results));
}

results.seconds = Math.round((performance.now() - started) / 1000);
console.log(`The run took ${results.seconds} s.`);

if (values["no-write"] || only.length < SECTIONS.length) {
  console.log("results.json and BENCHMARKS.md left as they were (a partial run or --no-write).");
} else {
  await writeResults(results);
  await writeFile(BENCHMARKS_FILE, renderBenchmarks(results, await loadBudgets()));
  console.log(`Wrote apps/bench/results.json and ${BENCHMARKS_FILE}`);
}
