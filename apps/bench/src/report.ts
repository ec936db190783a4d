// Markdown for the console and for BENCHMARKS.md: every figure comes from a measurement object.
import { cpus, freemem, loadavg, platform, release, totalmem } from "node:os";
import type { BudgetResult } from "./budget.ts";
import type { CoalescingResult } from "./coalescing.ts";
import type { Row } from "./measure.ts";
import type { StepResult } from "./pipeline.ts";
import { isSize, type OptInCost, type Size, type SizeFailure } from "./sizes.ts";

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

/** The issue's aim for what a browser app ships of the SDK. */
export function aimVerdict(bothGzip: number | undefined, aim = 6_000): string {
  if (bothGzip === undefined) {
    return "client + auth under 6 kB min+gzip: not measured";
  }
  const verdict = bothGzip < aim ? "MET" : `MISSED by ${((bothGzip - aim) / 1000).toFixed(2)} kB`;
  return `client + auth under ${aim / 1000} kB min+gzip (the aim): ${(bothGzip / 1000).toFixed(2)} kB, ${verdict}`;
}

/** Issue 20's aim for the app's imports, with the floor beside it. */
export function appAimVerdict(
  appGzip: number | undefined,
  floorGzip: number | undefined,
  aim: number,
): string {
  if (appGzip === undefined) {
    return `an app's imports under ${aim / 1000} kB min+gzip: not measured`;
  }
  const verdict = appGzip <= aim ? "MET" : `MISSED by ${((appGzip - aim) / 1000).toFixed(2)} kB`;
  const floor = floorGzip === undefined ? "not measured" : kB(floorGzip);
  return `an app's imports under ${aim / 1000} kB min+gzip (issue 20's aim): ${kB(appGzip)}, ${verdict}; the floor: ${floor}`;
}

/** The app's imports, its floor, and what each opt-in feature adds to it. */
export function appTable(
  app: Size | SizeFailure | undefined,
  floor: Size | SizeFailure | undefined,
  costs: readonly (OptInCost | SizeFailure)[],
): string {
  const row = (label: string, s: Size | SizeFailure | undefined, note: string) =>
    s && isSize(s)
      ? [label, s.platform, kB(s.minified), kB(s.gzip), note]
      : [label, s?.platform ?? "—", `does not bundle: ${s?.errors.join("; ") ?? "not measured"}`, "—", note];
  const added = (bytes: number) => `+${kB(bytes)}`;
  return table(
    [
      "bundle (production condition unless the row says otherwise)",
      "platform",
      "minified",
      "min+gzip",
      "what it is",
    ],
    [
      row(
        "the floor: createClient + a one-line bearer middleware",
        floor,
        "every guard of a call, no token lifecycle",
      ),
      row("an app's imports: createClient + createTokenManager", app, "the budget row"),
      ...costs.map((c) =>
        "gzip" in c
          ? [
              `+ ${c.name}`,
              c.platform,
              added(c.minified),
              added(c.gzip),
              "added to the app's imports when imported",
            ]
          : [`+ ${c.name}`, c.platform, `does not bundle: ${c.errors.join("; ")}`, "—", ""],
      ),
    ],
  );
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
      `${s.exitCode ?? "none (stopped by a signal: the step's time limit)"}${s.failed ? ` (failed: ${s.failed})` : ""}`,
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
