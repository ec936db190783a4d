// `pnpm --filter @engage-voice/bench bench`: runs every section, prints each table as it is done, and
// rewrites BENCHMARKS.md at the repository root from the figures of this run.
//   --only=overhead,http,coalescing,size,cli,pipeline   run some sections (BENCHMARKS.md is left alone)
//   --no-write                                      print only
//   --rounds=N                                      rounds of the per-call tables (overhead, http)
//   --pairs=N                                       pairs of batches behind each per-call verdict
//   --clock=cpu                                     time the stubbed per-call section in CPU time, not wall time
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { authClientContender, authContender, authFetchContender, coalescingSubject } from "./auth-rows.ts";
import { checkBudgets, formatBudgetResults, loadBudgets, loadExclusions } from "./budget.ts";
import { cliTable, measureCliSizes, measureStart, tokenStartVerdict } from "./cli.ts";
import { measureCoalescing } from "./coalescing.ts";
import { contenders, headerMiddleware, NAMES, type Target, verify } from "./contenders.ts";
import { criticalPathOf, formatCriticalPath } from "./critical-path.ts";
import { startLocalServer } from "./local-server.ts";
import {
  addedCost,
  addedMicros,
  type MeasureOptions,
  measure,
  type PairOptions,
  pairedCost,
} from "./measure.ts";
import { methodSection } from "./method.ts";
import { REPO_ROOT, runStep, STEPS } from "./pipeline.ts";
import {
  aimVerdict,
  CALL_BUDGET,
  callVerdict,
  coalescingTable,
  describeMachine,
  loadAtStart,
  machineTable,
  overheadTable,
  pipelineTable,
  sizeTable,
} from "./report.ts";
import {
  BOTH_ENTRY,
  isSize,
  measureSize,
  ownEntries,
  REFERENCE_ENTRIES,
  type Size,
  type SizeFailure,
} from "./sizes.ts";
import { ACCOUNTS_BODY, BASE_URL, stubServer } from "./stub.ts";

const SECTIONS = ["overhead", "http", "coalescing", "size", "cli", "pipeline"] as const;
type Section = (typeof SECTIONS)[number];

// Many short rounds rather than a few long ones: the verdicts compare per-round ratios, and their
// spread over the rounds is what tells a result from the noise of a shared machine.
const OVERHEAD: MeasureOptions = { rounds: 25, time: 60, warmupTime: 15 };
const HTTP: MeasureOptions = { rounds: 7, time: 150, warmupTime: 30 };
/** The verdicts' paired measurement: a few seconds of calls per path on a quiet machine. */
const PAIRS: Omit<PairOptions, "clock"> = { pairs: 201, batch: 200 };
/** The authorised paths held to {@link CALL_BUDGET}, each with the words of its verdict. */
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
const COMMAND = "pnpm bench";

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
const out: string[] = [];
function emit(markdown: string) {
  console.log(`${markdown}\n`);
  out.push(markdown);
}

emit(`## Machine\n\n${machineTable(machine, load)}`);

async function overheadSection(
  title: string,
  target: Target,
  options: MeasureOptions,
  intro: string,
  withVerdict: boolean,
) {
  const list = await contenders(target, [
    headerMiddleware(target),
    await authContender(target),
    await authFetchContender(target),
    await authClientContender(target),
  ]);
  await verify(list, JSON.parse(ACCOUNTS_BODY));
  const measurement = await measure(list, options);
  const lines = [`## ${title}`, intro, overheadTable(measurement.rows, NAMES.raw, options.clock)];
  const micros = (name: string) => measurement.rows.find((r) => r.name === name)?.microsPerCall;
  if (micros(NAMES.clientAuth) === undefined || micros(NAMES.openapiFetch) === undefined) {
    lines.push("middleware overhead vs bare openapi-fetch: not measured (a row did not run)");
  } else if (withVerdict) {
    const call = (name: string) => list.find((c) => c.name === name)?.call;
    const bare = call(NAMES.openapiFetch) as () => Promise<unknown>;
    const paired = async (name: string) => {
      const other = call(name);
      return other ? pairedCost(bare, other, { ...PAIRS, clock: options.clock ?? "wall" }) : undefined;
    };
    lines.push(
      `The verdicts: each path against bare openapi-fetch in ${PAIRS.pairs} pairs of ${PAIRS.batch}-call batches run back to back, alternating which goes first (a pair sees the same state of the machine); median ± MAD of the per-pair added cost.`,
    );
    for (const [name, what] of AUTHORISED) {
      const added = await paired(name);
      lines.push(
        added === undefined
          ? `${what}: not measured (the row did not run)`
          : `**${callVerdict(what, added)}** (${formatMicros(added.micros ?? Number.NaN)} per call)`,
      );
    }
    const spread = async (name: string) => {
      const added = await paired(name);
      return added ? `${formatPercent(added.median)} ± ${(added.mad * 100).toFixed(1)}%` : "not measured";
    };
    lines.push(
      `@engage-voice/client without middleware vs bare openapi-fetch, paired the same way: ${await spread(NAMES.client)}; with a one-line header middleware: ${await spread(NAMES.clientHeader)} (the floor of any openapi-fetch middleware).`,
    );
  } else {
    lines.push(
      `Over loopback HTTP, the client with the auth middleware takes ${formatMicros(addedMicros(measurement, NAMES.clientAuth, NAMES.openapiFetch))} per call (${formatPercent(addedCost(measurement, NAMES.clientAuth, NAMES.openapiFetch))}) compared with bare openapi-fetch (medians over the rounds), next to a round trip of ${(micros(NAMES.raw) ?? Number.NaN).toFixed(1)} µs with raw fetch; the differences between rows here are of the order of the "±" column.`,
    );
  }
  emit(lines.join("\n\n"));
}

function formatPercent(value: number): string {
  return `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)}%`;
}

function formatMicros(value: number): string {
  return `${value >= 0 ? "+" : "-"}${Math.abs(value).toFixed(1)} µs`;
}

if (runs("overhead")) {
  const { fetch } = stubServer();
  await overheadSection(
    "1. Per-call overhead, stubbed fetch",
    { baseUrl: BASE_URL, fetch, transport: "stub" },
    OVERHEAD,
    "No network: the fetch answers each call with a new Response of a pre-built body.",
    true,
  );
}

if (runs("http")) {
  const server = await startLocalServer();
  try {
    await overheadSection(
      "2. The same calls over HTTP on 127.0.0.1",
      { baseUrl: server.url, fetch: globalThis.fetch, transport: "http" },
      HTTP,
      "A node:http server in another process, keep-alive connections: what the overhead above is worth next to a round trip.",
      false,
    );
  } finally {
    await server.stop();
  }
}

if (runs("coalescing")) {
  const results = [];
  let reason: string | undefined;
  for (const { calls, expiries } of CONCURRENCY) {
    const subject = await coalescingSubject();
    if (typeof subject === "string") {
      reason = subject;
      break;
    }
    results.push(await measureCoalescing(subject, calls, expiries));
  }
  emit(
    reason
      ? `## 3. Refresh coalescing\n\nnot measured: ${reason}`
      : `## 3. Refresh coalescing\n\nA token manager on a stubbed token endpoint; its clock is moved past the access token's expiry, then the callers start in the same tick. Each expiry is crossed by bursts of \`getAccessToken()\` callers (timed: the wait across the expiry is the latency the renewal adds to a call; the wait with a valid token is the reference) and by bursts of calls through \`@engage-voice/client\` with the auth middleware (the token each request carried is read back from the stub).\n\n${coalescingTable(results)}`,
  );
}

if (runs("size")) {
  const sizes: (Size | SizeFailure)[] = [];
  for (const entry of [...(await ownEntries(await loadExclusions())), ...REFERENCE_ENTRIES]) {
    const size = await measureSize(entry, "browser");
    sizes.push(size);
    if (!isSize(size)) {
      sizes.push(await measureSize(entry, "node"));
    }
  }
  const budgets = checkBudgets(sizes, await loadBudgets());
  console.log(formatBudgetResults(budgets).join("\n"));
  const both = sizes.find((s) => s.name === BOTH_ENTRY);
  emit(
    [
      "## 4. Bundle size",
      "esbuild, ESM, minified, of each package's whole public API unless the row says otherwise; gzip level 9. 1 kB = 1,000 bytes. Budgets from `apps/bench/size-budget.json`, enforced by `pnpm test`.",
      sizeTable(sizes, budgets),
      `**${aimVerdict(both && isSize(both) ? both.gzip : undefined)}**`,
    ].join("\n\n"),
  );
}

if (runs("cli")) {
  const start = await measureStart();
  emit(
    [
      "## 5. The command line",
      "`@engage-voice/cli` (bin `engage-voice`): cold start-up of `node packages/cli/dist/cli.js --version`, `--help` and `token` against `node -e 0` on the same Node, each a new process, alternated, medians after two warm-ups; `token` reads a session that `engage-voice login` stored against a sandbox, stopped before timing (a request would fail the run); and its size.",
      cliTable(start, await measureCliSizes()),
      `**${tokenStartVerdict(start)}**`,
    ].join("\n\n"),
  );
}

if (runs("pipeline")) {
  const steps = [];
  for (const step of STEPS) {
    const result = await runStep(step);
    steps.push(result);
    if (result.tail) {
      console.error(`${step.name} failed:\n${result.tail}`);
    }
  }
  const tests = steps.find((s) => s.summary);
  const path = tests?.summary
    ? `**Critical path of the tests** (the chain of tasks, each started when the one before it ended, that ends last; the run's other tasks ran beside it): ${formatCriticalPath(await criticalPathOf(tests.summary))}.`
    : "Critical path of the tests: not measured (turbo wrote no run summary).";
  emit(
    `## 6. Pipeline speed\n\nOne after the other, from the repository root.\n\n${pipelineTable(steps)}\n\n${path}`,
  );
}

const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.log(`The run took ${seconds} s.`);

if (values["no-write"] || only.length < SECTIONS.length) {
  console.log("BENCHMARKS.md left as it was (a partial run or --no-write).");
} else {
  const file = join(REPO_ROOT, "BENCHMARKS.md");
  const [machineSection, ...results] = out;
  await writeFile(
    file,
    [
      "# Benchmarks",
      `Every figure below comes from one run of \`${COMMAND}\` on the machine described, on ${machine.date}; the run took ${seconds} s. The file is rewritten by that command: do not edit it by hand. The code is in [apps/bench](apps/bench).`,
      `## Command\n\n\`\`\`sh\n${COMMAND}   # turbo run build, then pnpm --filter @engage-voice/bench bench\n\`\`\``,
      machineSection,
      ...results,
      methodSection({
        overhead: OVERHEAD,
        http: HTTP,
        concurrency: CONCURRENCY.map((c) => c.calls),
        budget: CALL_BUDGET,
        pairs: PAIRS,
      }),
    ].join("\n\n"),
  );
  console.log(`Wrote ${file}`);
}
