// `pnpm --filter @engage-voice/bench bench`: runs every section, prints each table as it is done, and
// writes the figures of this run to apps/bench/results.json and BENCHMARKS.md, rendered from them.
//   --only=overhead,http,coalescing,size,cli,pipeline   run some sections (neither file is written)
//   --no-write                                      print only

import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { authContender, authFetchContender, coalescingSubject } from "./auth-rows.ts";
import { checkBudgets, formatBudgetResults, loadBudgets } from "./budget.ts";
import { measureCliSizes, measureStart } from "./cli.ts";
import { measureCoalescing } from "./coalescing.ts";
import { contenders, headerMiddleware, NAMES, type Target, verify } from "./contenders.ts";
import { criticalPathOf } from "./critical-path.ts";
import { startLocalServer } from "./local-server.ts";
import { addedMicros, type Measurement, type MeasureOptions, measure } from "./measure.ts";
import { runStep, STEPS } from "./pipeline.ts";
import {
  renderBenchmarks,
  renderCli,
  renderCoalescing,
  renderCriticalPath,
  renderHttp,
  renderOverhead,
  renderPipeline,
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
import { measureAppRows, measureSizeRows } from "./size-rows.ts";
import { ACCOUNTS_BODY, BASE_URL, stubServer } from "./stub.ts";
import { spreadOf, TIME_BUDGETS, type TimeBudget, verdictOf } from "./verdict.ts";

const SECTIONS = ["overhead", "http", "coalescing", "size", "cli", "pipeline"] as const;
type Section = (typeof SECTIONS)[number];

const OVERHEAD: MeasureOptions = { rounds: 15, time: 100, warmupTime: 20 };
const HTTP: MeasureOptions = { rounds: 7, time: 150, warmupTime: 30 };
const CONCURRENCY = [
  { calls: 1, expiries: 200 },
  { calls: 100, expiries: 20 },
  { calls: 10_000, expiries: 3 },
] as const;

function usage(problem: string): never {
  console.error(`${problem}\nUsage: bench [--only=${SECTIONS.join(",")}] [--no-write]`);
  process.exit(2);
}

let values: { only?: string | undefined; "no-write"?: boolean | undefined };
try {
  ({ values } = parseArgs({
    options: { only: { type: "string" }, "no-write": { type: "boolean", default: false } },
  }));
} catch (error) {
  usage((error as Error).message);
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
};
const print = (markdown: string) => console.log(`${markdown}\n`);

print(`## Machine\n\n${machineTable(machine, load)}`);

/** The cost `name` adds over `reference`, per round; judged when it is held to a budget. */
function compare(
  measurement: Measurement,
  label: string,
  name: string,
  reference: string,
  budget?: TimeBudget,
): CallSection["comparisons"][number] {
  const timed = (row: string) => measurement.rows.find((r) => r.name === row)?.microsPerCall !== undefined;
  if (!timed(name) || !timed(reference)) {
    return { label, notMeasured: `${timed(name) ? reference : name} did not run` };
  }
  const added = spreadOf(
    measurement.rounds.map((r) => (r.get(name) as number) / (r.get(reference) as number) - 1),
  );
  const comparison: Comparison = {
    label,
    name,
    reference,
    added,
    addedMicros: addedMicros(measurement, name, reference),
  };
  if (budget !== undefined) {
    comparison.budget = budget;
    comparison.verdict = verdictOf(added, TIME_BUDGETS[budget]);
  }
  return comparison;
}

async function callSection(
  target: Target,
  options: MeasureOptions,
  comparisons: (m: Measurement) => CallSection["comparisons"],
): Promise<CallSection> {
  const list = await contenders(target, [
    headerMiddleware(target),
    await authContender(target),
    await authFetchContender(target),
  ]);
  await verify(list, JSON.parse(ACCOUNTS_BODY));
  const measurement = await measure(list, options);
  return { settings: options, rows: measurement.rows, comparisons: comparisons(measurement) };
}

if (runs("overhead")) {
  const { fetch } = stubServer();
  results.overhead = await callSection({ baseUrl: BASE_URL, fetch, transport: "stub" }, OVERHEAD, (m) => [
    compare(m, "middleware overhead", NAMES.clientAuth, NAMES.openapiFetch, "middleware"),
    compare(
      m,
      "auth.fetch (as the client's fetch) overhead",
      NAMES.clientAuthFetch,
      NAMES.openapiFetch,
      "middleware",
    ),
    compare(m, "@engage-voice/client without middleware", NAMES.client, NAMES.openapiFetch),
    compare(m, "with a one-line header middleware", NAMES.clientHeader, NAMES.openapiFetch),
  ]);
  print(renderOverhead(results.overhead));
}

if (runs("http")) {
  const server = await startLocalServer();
  try {
    results.http = await callSection(
      { baseUrl: server.url, fetch: globalThis.fetch, transport: "http" },
      HTTP,
      (m) => [compare(m, "the client with the auth middleware", NAMES.clientAuth, NAMES.openapiFetch)],
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
