// BENCHMARKS.md from the figures of one run (results.json) and the size budgets: a pure function, so
// that `pnpm test` can render it again and hold the committed file to it byte for byte. The bench
// prints the same section renderers as each section ends.
import { type Budget, type BudgetResult, checkBudgets } from "./budget.ts";
import { cliTable, tokenStartVerdict } from "./cli.ts";
import { formatCriticalPath } from "./critical-path.ts";
import { methodSection } from "./method.ts";
import {
  aimVerdict,
  appAimVerdict,
  appTable,
  coalescingTable,
  machineTable,
  overheadTable,
  pipelineTable,
  sizeTable,
} from "./report.ts";
import {
  type CallSection,
  type CliSection,
  COMMAND,
  type CoalescingSection,
  type Comparison,
  isMeasured,
  type NotMeasured,
  type PipelineSection,
  type Results,
  type SandboxSection,
} from "./results.ts";
import { sandboxLoadTable } from "./sandbox-table.ts";
import type { AppRows } from "./size-rows.ts";
import { APP_AIM, APP_ENTRY_NAME, BOTH_ENTRY, isSize, type Size, type SizeFailure } from "./sizes.ts";
import { isInsideTheNoise, TIME_BUDGETS } from "./verdict.ts";

const percent = (value: number) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)}%`;
const micros = (value: number) => `${value >= 0 ? "+" : "-"}${Math.abs(value).toFixed(1)} µs`;
const notMeasured = (title: string, section: NotMeasured) =>
  `## ${title}\n\nnot measured: ${section.notMeasured}`;

export const TITLES = {
  overhead: "1. Per-call overhead, stubbed fetch",
  http: "2. The same calls over HTTP on 127.0.0.1",
  coalescing: "3. Refresh coalescing",
  size: "4. Bundle size",
  cli: "5. The command line",
  pipeline: "6. Pipeline speed",
  criticalPath: "7. CI critical path",
  sandbox: "8. The sandbox as a CI server",
} as const;

/** A comparison's figure with its spread; with its verdict when it is held to a budget. */
export function comparisonLine(c: Comparison): string {
  const figure = `${c.label} vs ${c.reference}: ${percent(c.added.median)} ± ${(c.added.spread * 100).toFixed(1)}%`;
  const over = `${c.added.rounds} ${c.added.of ?? "rounds"}`;
  if (c.budget === undefined || c.verdict === undefined) {
    return `${figure} (${micros(c.addedMicros)} per call; median and MAD over ${over})`;
  }
  const { budget, goal } = TIME_BUDGETS[c.budget];
  const limits = `budget ${Math.round(budget * 100)}%${goal === undefined ? "" : `, goal ${Math.round(goal * 100)}%`}`;
  const noise = isInsideTheNoise(c.verdict)
    ? `; ${c.verdict.includes("goal") ? "the goal" : "the budget"} lies within median ± MAD: this run cannot tell, more pairs on a quieter machine can`
    : "";
  return `**${figure} (${limits}): ${c.verdict}** (${micros(c.addedMicros)} per call; median and MAD over ${over}${noise})`;
}

function comparisonText(c: CallSection["comparisons"][number]): string {
  return "added" in c ? comparisonLine(c) : `${c.label}: not measured (${c.notMeasured})`;
}

export function renderOverhead(section: CallSection | NotMeasured): string {
  if (!isMeasured(section)) {
    return notMeasured(TITLES.overhead, section);
  }
  const held = section.comparisons.filter((c) => !("added" in c) || c.budget !== undefined);
  const others = section.comparisons.filter((c) => "added" in c && c.budget === undefined);
  const { pairs } = section.settings;
  return [
    `## ${TITLES.overhead}`,
    "No network: the fetch answers each call with a new Response of a pre-built body.",
    overheadTable(section.rows, section.rows[0]?.name ?? "the first row", section.settings.clock),
    ...(pairs
      ? [
          `The verdicts: each authorised path against bare openapi-fetch in ${pairs.pairs} pairs of ${pairs.batch}-call batches run back to back, alternating which goes first (a pair sees the same state of the machine)${pairs.clock === "cpu" ? ", in CPU time" : ""}; median ± MAD of the per-pair added cost.`,
        ]
      : []),
    ...held.map(comparisonText),
    ...(others.length > 0
      ? [
          `${others.map(comparisonText).join("; ")} (the header middleware is the floor of any openapi-fetch middleware).`,
        ]
      : []),
  ].join("\n\n");
}

export function renderHttp(section: CallSection | NotMeasured): string {
  if (!isMeasured(section)) {
    return notMeasured(TITLES.http, section);
  }
  const baseline = section.rows[0];
  const lines = section.comparisons.map((c) =>
    "added" in c
      ? `Over loopback HTTP, ${c.label} takes ${micros(c.addedMicros)} per call (${percent(c.added.median)} ± ${(c.added.spread * 100).toFixed(1)}%) compared with ${c.reference} (median and MAD over ${c.added.rounds} rounds), next to a round trip of ${(baseline?.microsPerCall ?? Number.NaN).toFixed(1)} µs with ${baseline?.name}; the differences between rows here are of the order of the "±" column.`
      : comparisonText(c),
  );
  return [
    `## ${TITLES.http}`,
    "A node:http server in another process, keep-alive connections: what the overhead above is worth next to a round trip.",
    overheadTable(section.rows, baseline?.name ?? "the first row"),
    ...lines,
  ].join("\n\n");
}

export function renderCoalescing(section: CoalescingSection | NotMeasured): string {
  if (!isMeasured(section)) {
    return notMeasured(TITLES.coalescing, section);
  }
  return `## ${TITLES.coalescing}\n\nA token manager on a stubbed token endpoint; its clock is moved past the access token's expiry, then the callers start in the same tick. Each expiry is crossed by bursts of \`getAccessToken()\` callers (timed: the wait across the expiry is the latency the renewal adds to a call; the wait with a valid token is the reference) and by bursts of calls through \`@engage-voice/client\` with the auth middleware (the token each request carried is read back from the stub).\n\n${coalescingTable(section.results)}`;
}

export function renderSizes(
  sizes: readonly (Size | SizeFailure)[],
  budgets: readonly Budget[],
  app: AppRows | NotMeasured,
): string {
  const held: BudgetResult[] = checkBudgets(sizes, budgets);
  const gzipOf = (s: Size | SizeFailure | undefined) => (s && isSize(s) ? s.gzip : undefined);
  const appImports = sizes.find((s) => s.name === APP_ENTRY_NAME);
  return [
    `## ${TITLES.size}`,
    "esbuild, ESM, minified, of each package's whole public API unless the row says otherwise; gzip level 9. 1 kB = 1,000 bytes (the exact bytes are in `apps/bench/results.json`, which `pnpm test` holds to what the current build bundles to). Budgets from `apps/bench/size-budget.json`, enforced by `pnpm test`.",
    sizeTable(sizes, held),
    `**${aimVerdict(gzipOf(sizes.find((s) => s.name === BOTH_ENTRY)))}**`,
    ...(isMeasured(app)
      ? [
          "What an app of the exchange flow ships (the `production` condition, as Vite's and webpack's production builds resolve it), the floor beside it, and what each feature the app does not import by default adds when it does (the same bundle with the feature's import, less the app's imports on the same platform):",
          appTable(appImports, app.floor, app.optIns),
          `**${appAimVerdict(gzipOf(appImports), gzipOf(app.floor), APP_AIM)}**`,
        ]
      : [`The floor of the app's imports and the opt-in features: not measured (${app.notMeasured}).`]),
  ].join("\n\n");
}

export function renderCli(section: CliSection | NotMeasured): string {
  if (!isMeasured(section)) {
    return notMeasured(TITLES.cli, section);
  }
  return [
    `## ${TITLES.cli}`,
    "`@engage-voice/cli` (bin `engage-voice`): cold start-up of `node packages/cli/dist/cli.js --version`, `--help` and `token` against `node -e 0` on the same Node, each a new process, alternated, medians after two warm-ups; `token` reads a session that `engage-voice login` stored against a sandbox, stopped before timing (a request would fail the run); and its size.",
    cliTable(section.start, section.sizes),
    `**${tokenStartVerdict(section.start)}**`,
  ].join("\n\n");
}

export function renderPipeline(section: PipelineSection | NotMeasured): string {
  if (!isMeasured(section)) {
    return notMeasured(TITLES.pipeline, section);
  }
  return `## ${TITLES.pipeline}\n\nOne after the other, from the repository root.\n\n${pipelineTable(section.steps)}`;
}

/** Where CI time goes: the chain of turbo tasks that ended last, against the CI budget. */
export function renderCriticalPath(
  section: PipelineSection | NotMeasured,
  results: Pick<Results, "load" | "machine">,
): string {
  if (!isMeasured(section)) {
    return notMeasured(TITLES.criticalPath, section);
  }
  const total = section.criticalPath.reduce((sum, s) => sum + s.seconds + s.waitSeconds, 0);
  const longest = [...section.criticalPath].sort((a, b) => b.seconds - a.seconds)[0];
  return [
    `## ${TITLES.criticalPath}`,
    `From turbo's run summary of the step "${section.criticalPathOf}": the chain of tasks, each started when the one before it ended, that ends last. The run's other tasks ran beside it; shortening one of them does not shorten CI.`,
    `**${formatCriticalPath(section.criticalPath)}.**`,
    `The longest task on it is \`${longest?.taskId}\` (${longest?.seconds.toFixed(1)} s). The aim is a fresh clone's set-up and tests in at most ${TIME_BUDGETS.ciSeconds.budget} s on an idle machine: this path took ${total.toFixed(1)} s on ${results.machine.cores} cores with a load average of ${results.load.loadAverage.toFixed(2)} when the run started${results.load.loadAverage > results.machine.cores ? " (a loaded machine: other work shared the cores, so the figure is an upper bound)" : ""}, without the install.`,
  ].join("\n\n");
}

/** The whole of BENCHMARKS.md. */
export function renderSandbox(section: SandboxSection | NotMeasured): string {
  if (!isMeasured(section)) {
    return notMeasured(TITLES.sandbox, section);
  }
  const { budget } = TIME_BUDGETS.sandboxLoad;
  return [
    `## ${TITLES.sandbox}`,
    "What a user's CI meets when it runs thousands of calls against the sandbox.",
    sandboxLoadTable(section.load),
    ...section.verdicts.map(
      ({ connections, bareOverSandbox: r, verdict }) =>
        `**${connections} connections: a bare Hono app answers ${r.median.toFixed(2)}× ± ${r.spread.toFixed(2)} the sandbox's requests per second (budget ${budget.toFixed(2)}×, twice the throughput of issue 20's 6.67×): ${verdict}**`,
    ),
  ].join("\n\n");
}

export function renderBenchmarks(results: Results, budgets: readonly Budget[]): string {
  const settings = (section: CallSection | NotMeasured) =>
    isMeasured(section) ? section.settings : undefined;
  return `${[
    "# Benchmarks",
    `Every figure below comes from one run of \`${COMMAND}\` on the machine described, on ${results.date}; the run took ${results.seconds.toFixed(0)} s. The run writes them to [apps/bench/results.json](apps/bench/results.json) and renders this file from them: do not edit it by hand (\`pnpm test\` fails when the two differ). The code is in [apps/bench](apps/bench).`,
    `## Command\n\n\`\`\`sh\n${COMMAND}   # turbo run build, then pnpm --filter @engage-voice/bench bench\n\`\`\``,
    `## Machine\n\n${machineTable(results.machine, results.load)}`,
    renderOverhead(results.overhead),
    renderHttp(results.http),
    renderCoalescing(results.coalescing),
    renderSizes(results.sizes, budgets, results.app),
    renderCli(results.cli),
    renderPipeline(results.pipeline),
    renderCriticalPath(results.pipeline, results),
    renderSandbox(results.sandbox),
    methodSection({
      overhead: settings(results.overhead),
      http: settings(results.http),
      concurrency: isMeasured(results.coalescing) ? results.coalescing.results.map((r) => r.concurrency) : [],
    }),
  ].join("\n\n")}`;
}
