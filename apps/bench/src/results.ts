// The figures of one full `pnpm bench` run, as data: apps/bench/results.json. BENCHMARKS.md is rendered
// from it (src/render.ts) and nothing else, and `pnpm test` holds both files to each other, the sizes
// to the bytes the current build bundles to, and the timings to their shape (test/results.test.ts).
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CliSizes, StartTimes } from "./cli.ts";
import type { CoalescingResult } from "./coalescing.ts";
import type { PathStep } from "./critical-path.ts";
import type { MeasureOptions, PairOptions, Row } from "./measure.ts";
import { REPO_ROOT } from "./pipeline.ts";
import type { Load, Machine } from "./report.ts";
import type { SandboxLoad } from "./sandbox-table.ts";
import type { AppRows } from "./size-rows.ts";
import { isSize, type Size, type SizeFailure } from "./sizes.ts";
import {
  type Limit,
  type Spread,
  TIME_BUDGETS,
  type TimeBudget,
  type Verdict,
  verdictOf,
} from "./verdict.ts";

export const RESULTS_FILE = new URL("../results.json", import.meta.url);
export const BENCHMARKS_FILE = join(REPO_ROOT, "BENCHMARKS.md");
export const COMMAND = "pnpm bench";
/** What a stale BENCHMARKS.md or results.json needs. */
export const REGENERATE = `run ${COMMAND} and commit BENCHMARKS.md and apps/bench/results.json`;
/** What a BENCHMARKS.md needs when only its rendering or the size budgets changed. */
export const RERENDER =
  "pnpm --filter @engage-voice/bench render (no new figures; after a change to the rendering or size-budget.json)";

export interface NotMeasured {
  notMeasured: string;
}

/** The cost one client adds over another, per round; held to a budget when it names one. */
export interface Comparison {
  /** What is compared, as the report words it ("middleware overhead"). */
  label: string;
  name: string;
  reference: string;
  /** time(name) / time(reference) - 1, over the rounds. */
  added: Spread;
  /** time(name) - time(reference) in µs per call, median over the rounds. */
  addedMicros: number;
  budget?: TimeBudget;
  /** verdictOf(added, TIME_BUDGETS[budget]) when the run was made. */
  verdict?: Verdict;
}

export interface CallSection {
  /** The table's rounds and, when its comparisons come from paired batches, those pairs. */
  settings: MeasureOptions & { pairs?: PairOptions };
  rows: Row[];
  comparisons: (Comparison | (NotMeasured & { label: string }))[];
}

export interface CoalescingSection {
  results: CoalescingResult[];
}

export interface CliSection {
  start: StartTimes;
  sizes: CliSizes;
  /** verdictOf(start.tokenRatio, TIME_BUDGETS.tokenStart) when the run was made. */
  verdict: Verdict;
}

export interface PipelineStepResult {
  name: string;
  command: string;
  seconds: number;
  exitCode: number | null;
  failed?: string;
}

export interface PipelineSection {
  steps: PipelineStepResult[];
  /** The step whose turbo run summary gave the critical path. */
  criticalPathOf: string;
  criticalPath: PathStep[];
}

export interface Results {
  command: string;
  /** When the run started, UTC, to the second. */
  date: string;
  /** How long the whole run took. */
  seconds: number;
  machine: Machine;
  load: Load;
  overhead: CallSection | NotMeasured;
  http: CallSection | NotMeasured;
  coalescing: CoalescingSection | NotMeasured;
  /** Every bundle measured, in the order of the table; a browser failure is followed by its node row. */
  sizes: (Size | SizeFailure)[];
  /** The floor of the app's imports and what each opt-in feature adds to them. */
  app: AppRows | NotMeasured;
  cli: CliSection | NotMeasured;
  pipeline: PipelineSection | NotMeasured;
  sandbox: SandboxSection | NotMeasured;
}

/** The sandbox under load, with the verdict of each connection count against `sandboxLoad`. */
export interface SandboxSection {
  load: SandboxLoad;
  verdicts: { connections: number; bareOverSandbox: Spread; verdict: Verdict }[];
}

export function isMeasured<T extends object>(section: T | NotMeasured): section is T {
  return !("notMeasured" in section);
}

/** Two-space JSON and a final newline, as biome formats it. */
export function serializeResults(results: Results): string {
  return `${JSON.stringify(results, null, 2)}\n`;
}

export async function readResults(file: URL = RESULTS_FILE): Promise<Results> {
  return JSON.parse(await readFile(file, "utf8")) as Results;
}

export async function writeResults(results: Results, file: URL = RESULTS_FILE): Promise<void> {
  await writeFile(file, serializeResults(results));
}

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** A timing that cannot be re-measured in a test must at least be whole: a median, a spread, a consistent verdict. */
function spreadProblems(where: string, value: Spread | undefined): string[] {
  if (!value || !finite(value.median) || !finite(value.spread) || value.spread < 0 || !(value.rounds >= 1)) {
    return [`${where} needs a median, a spread (>= 0) and the number of rounds`];
  }
  return [];
}

function verdictProblems(where: string, value: Spread, limit: Limit, verdict: Verdict | undefined): string[] {
  const expected = verdictOf(value, limit);
  const against = limit.goal === undefined ? limit.budget : `${limit.budget} (goal ${limit.goal})`;
  return verdict === expected
    ? []
    : [
        `${where} says ${verdict ?? "no verdict"}, but ${value.median} ± ${value.spread} against ${against} is ${expected}`,
      ];
}

function callProblems(where: string, section: CallSection | NotMeasured): string[] {
  if (!isMeasured(section)) {
    return [`${where} was not measured: ${section.notMeasured}`];
  }
  const problems: string[] = [];
  for (const row of section.rows) {
    if (row.skipped !== undefined) {
      continue;
    }
    for (const field of ["opsPerSec", "microsPerCall", "timeRatio", "spread"] as const) {
      if (!finite(row[field]) || (row[field] as number) < 0) {
        problems.push(`${where}: ${row.name} has no ${field}`);
      }
    }
  }
  for (const comparison of section.comparisons) {
    if (!("added" in comparison)) {
      problems.push(`${where}: ${comparison.label} was not measured: ${comparison.notMeasured}`);
      continue;
    }
    const at = `${where}: ${comparison.label}`;
    const shape = spreadProblems(at, comparison.added);
    problems.push(...shape);
    if (!finite(comparison.addedMicros)) {
      problems.push(`${at} has no time per call`);
    }
    if (comparison.budget !== undefined && shape.length === 0) {
      problems.push(
        ...verdictProblems(at, comparison.added, TIME_BUDGETS[comparison.budget], comparison.verdict),
      );
    }
  }
  return problems;
}

/**
 * What is missing or inconsistent in a run's figures: a section not measured, a timing without its
 * spread, a verdict that does not follow from the figure, its spread and today's budget. Empty when
 * the figures are whole.
 */
export function resultProblems(results: Results): string[] {
  const problems: string[] = [];
  if (results.command !== COMMAND || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(results.date ?? "")) {
    problems.push(`the run needs its command (${COMMAND}) and its date`);
  }
  if (!finite(results.seconds) || !results.machine?.cpu || !finite(results.load?.loadAverage)) {
    problems.push("the run needs its duration, its machine and the machine's load");
  }
  problems.push(...callProblems("the stubbed calls", results.overhead));
  problems.push(...callProblems("the calls over HTTP", results.http));
  if (!isMeasured(results.coalescing)) {
    problems.push(`refresh coalescing was not measured: ${results.coalescing.notMeasured}`);
  } else {
    for (const r of results.coalescing.results) {
      if (![r.medianMs, r.p99Ms, r.validMedianMs, r.validP99Ms].every(finite) || r.tokenCalls.length === 0) {
        problems.push(
          `refresh coalescing at ${r.concurrency} callers needs its waits (median and p99) and token calls`,
        );
      }
    }
  }
  if (!results.sizes?.some(isSize)) {
    problems.push("no bundle size was measured");
  }
  if (!isMeasured(results.app)) {
    problems.push(`the app's floor and opt-ins were not measured: ${results.app.notMeasured}`);
  } else if (!isSize(results.app.floor)) {
    problems.push("the floor of the app's imports did not bundle");
  }
  if (!isMeasured(results.cli)) {
    problems.push(`the command line was not measured: ${results.cli.notMeasured}`);
  } else {
    const { tokenRatio } = results.cli.start;
    const shape = spreadProblems("the token start-up ratio", tokenRatio);
    problems.push(...shape);
    if (shape.length === 0) {
      problems.push(
        ...verdictProblems(
          "the token start-up ratio",
          tokenRatio,
          TIME_BUDGETS.tokenStart,
          results.cli.verdict,
        ),
      );
    }
  }
  if (!isMeasured(results.sandbox)) {
    problems.push(`the sandbox under load was not measured: ${results.sandbox.notMeasured}`);
  } else {
    for (const { connections, bareOverSandbox, verdict } of results.sandbox.verdicts) {
      const where = `the sandbox at ${connections} connections`;
      const shape = spreadProblems(where, bareOverSandbox);
      problems.push(...shape);
      if (shape.length === 0) {
        problems.push(...verdictProblems(where, bareOverSandbox, TIME_BUDGETS.sandboxLoad, verdict));
      }
    }
  }
  if (!isMeasured(results.pipeline)) {
    problems.push(`the pipeline was not measured: ${results.pipeline.notMeasured}`);
  } else if (results.pipeline.criticalPath.length === 0) {
    problems.push("the pipeline needs the critical path of its tests");
  }
  return problems;
}
