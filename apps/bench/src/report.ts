// Markdown for the console and for BENCHMARKS.md: every figure comes from a measurement object.
import { cpus, freemem, loadavg, platform, release, totalmem } from "node:os";
import type { BudgetResult } from "./budget.ts";
import type { CoalescingResult } from "./coalescing.ts";
import type { AddedCost, Row } from "./measure.ts";
import type { StepResult } from "./pipeline.ts";
import { isSize, type Size, type SizeFailure } from "./sizes.ts";

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  date: string;
}

export function describeMachine(now = new Date()): Machine {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() || "unknown",
    cores: list.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${platform()} ${release()}`,
    date: now.toISOString().replace(/\.\d+Z$/, "Z"),
  };
}

export interface Load {
  /** Free memory, GiB. */
  freeGiB: number;
  /** The 1-minute load average: above the core count, other work shared the machine. */
  loadAverage: number;
}

/** How busy the machine was when the run started. */
export function loadAtStart(): Load {
  return { freeGiB: Math.round((freemem() / 2 ** 30) * 10) / 10, loadAverage: loadavg()[0] ?? 0 };
}

const group = (value: number, digits = 0) =>
  value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(head), `|${head.map(() => "---").join("|")}|`, ...rows.map(line)].join("\n");
}

export function overheadTable(
  rows: readonly Row[],
  baselineName: string,
  clock: "wall" | "cpu" = "wall",
): string {
  const cpu = clock === "cpu" ? "CPU " : "";
  return table(
    [
      "client",
      clock === "cpu" ? "calls per CPU second" : "ops/s",
      `${cpu}µs per call`,
      `${cpu}time vs ${baselineName}`,
      "± (MAD over rounds)",
      "how it is driven",
    ],
    rows.map((r) =>
      r.skipped !== undefined || r.opsPerSec === undefined
        ? [r.name, "—", "—", "—", "—", `not measured: ${r.skipped ?? "no result"}`]
        : [
            r.name,
            group(r.opsPerSec),
            group(r.microsPerCall ?? Number.NaN, 1),
            `${(r.timeRatio ?? Number.NaN).toFixed(2)}×`,
            `${group((r.spread ?? 0) * 100, 0)}%`,
            r.note ?? "",
          ],
    ),
  );
}

/**
 * What an authorised call may add to a bare openapi-fetch call of the same operation (issue #20): above
 * `budget` it fails, and `goal` is what to aim for. The verdicts, the method text and the docs read it here.
 */
export const CALL_BUDGET = { budget: 0.1, goal: 0.05 } as const;

const percent = (value: number) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)}%`;

/**
 * One line per authorised path: the median added cost over the rounds, its spread (median ± MAD of the
 * per-round values), and a verdict that is PASS or FAIL only when the budget lies outside that band.
 */
export function callVerdict(
  what: string,
  added: AddedCost,
  limits: { budget: number; goal: number } = CALL_BUDGET,
): string {
  const low = added.median - added.mad;
  const high = added.median + added.mad;
  const figures = `${what} vs bare openapi-fetch: ${percent(added.median)} ± ${(added.mad * 100).toFixed(1)}% (median ± MAD over ${added.rounds} ${added.of ?? "rounds"}; budget ${Math.round(limits.budget * 100)}%, goal ${Math.round(limits.goal * 100)}%)`;
  const band = `${percent(low)} to ${percent(high)}`;
  if (low > limits.budget) {
    return `${figures}: FAIL (the whole band, ${band}, is over the budget)`;
  }
  if (high > limits.budget) {
    return `${figures}: inside the noise (the budget lies within ${band}): the run cannot tell; more pairs on a quieter machine can`;
  }
  const goal =
    high <= limits.goal ? "goal met" : low > limits.goal ? "goal not met" : "goal inside the noise";
  return `${figures}: PASS, ${goal}`;
}

/** The aim for what a browser app ships of the SDK. */
export function aimVerdict(bothGzip: number | undefined, aim = 6_000): string {
  if (bothGzip === undefined) {
    return "client + auth under 6 kB min+gzip: not measured";
  }
  const verdict = bothGzip < aim ? "MET" : `MISSED by ${((bothGzip - aim) / 1000).toFixed(2)} kB`;
  return `client + auth under ${aim / 1000} kB min+gzip (the aim): ${(bothGzip / 1000).toFixed(2)} kB, ${verdict}`;
}

export function coalescingTable(results: readonly CoalescingResult[]): string {
  return table(
    [
      "concurrent callers",
      "expiries crossed (each kind)",
      "token calls per expiry (must be 1)",
      "all got the new token",
      "wait across the expiry, median / p99",
      "wait with a valid token, median / p99",
    ],
    results.map((r) => {
      const calls = [...new Set(r.tokenCalls)];
      const ms = (value: number) => `${value.toFixed(3)} ms`;
      return [
        group(r.concurrency),
        String(r.expiries),
        `${calls.join(", ")}${calls.length === 1 && calls[0] === 1 ? "" : " FAIL"}`,
        r.allGotNewToken ? "yes" : "NO",
        `${ms(r.medianMs)} / ${ms(r.p99Ms)}`,
        `${ms(r.validMedianMs)} / ${ms(r.validP99Ms)}`,
      ];
    }),
  );
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;

export function sizeTable(sizes: readonly (Size | SizeFailure)[], budgets: readonly BudgetResult[]): string {
  return table(
    ["bundle", "platform", "minified", "min+gzip", "budget (min+gzip)"],
    sizes.map((s) => {
      const budget = budgets.find((b) => b.name === s.name && s.platform === "browser");
      const budgetCell = budget ? `${kB(budget.budget.gzip)} ${budget.problems.length ? "FAIL" : "ok"}` : "—";
      return isSize(s)
        ? [s.name, s.platform, kB(s.minified), kB(s.gzip), budgetCell]
        : [s.name, s.platform, `does not bundle: ${s.errors.join("; ")}`, "—", budgetCell];
    }),
  );
}

export function pipelineTable(steps: readonly StepResult[]): string {
  return table(
    ["step", "wall time", "exit code", "command (from the repository root)"],
    steps.map((s) => [
      s.name,
      `${s.seconds.toFixed(1)} s`,
      s.failed ? `${s.exitCode} (failed: ${s.failed})` : String(s.exitCode),
      `\`${s.command}\``,
    ]),
  );
}

export function machineTable(machine: Machine, load: Load): string {
  return table(
    ["CPU", "cores", "memory", "load average at start (1 min)", "Node", "OS", "date (UTC)"],
    [
      [
        machine.cpu,
        String(machine.cores),
        `${machine.memoryGiB} GiB (${load.freeGiB} GiB free)`,
        load.loadAverage.toFixed(2),
        machine.node,
        machine.os,
        machine.date,
      ],
    ],
  );
}
