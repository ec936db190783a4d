// `pnpm --filter @engage-voice/bench bench`: runs every section, prints each table as it is done, and
// rewrites BENCHMARKS.md at the repository root from the figures of this run.
//   --only=overhead,http,coalescing,size,cli,pipeline   run some sections (BENCHMARKS.md is left alone)
//   --no-write                                      print only
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { authContender, authFetchContender, coalescingSubject } from "./auth-rows.ts";
import { checkBudgets, formatBudgetResults, loadBudgets, loadExclusions } from "./budget.ts";
import { cliTable, measureCliSizes, measureStart, tokenStartVerdict } from "./cli.ts";
import { measureCoalescing } from "./coalescing.ts";
import { contenders, headerMiddleware, NAMES, type Target, verify } from "./contenders.ts";
import { criticalPathOf, formatCriticalPath } from "./critical-path.ts";
import { startLocalServer } from "./local-server.ts";
import { addedCost, addedMicros, type MeasureOptions, measure } from "./measure.ts";
import { methodSection } from "./method.ts";
import { REPO_ROOT, runStep, STEPS } from "./pipeline.ts";
import {
  aimVerdict,
  appAimVerdict,
  appTable,
  coalescingTable,
  describeMachine,
  loadAtStart,
  machineTable,
  middlewareVerdict,
  overheadTable,
  pipelineTable,
  sizeTable,
} from "./report.ts";
import {
  APP_AIM,
  APP_ENTRY_NAME,
  BOTH_ENTRY,
  FLOOR_ENTRY,
  isSize,
  measureOptIns,
  measureSize,
  ownEntries,
  REFERENCE_ENTRIES,
  type Size,
  type SizeFailure,
} from "./sizes.ts";
import { ACCOUNTS_BODY, BASE_URL, stubServer } from "./stub.ts";

const SECTIONS = ["overhead", "http", "coalescing", "size", "cli", "pipeline"] as const;
type Section = (typeof SECTIONS)[number];

const OVERHEAD: MeasureOptions = { rounds: 15, time: 100, warmupTime: 20 };
const HTTP: MeasureOptions = { rounds: 7, time: 150, warmupTime: 30 };
const CONCURRENCY = [
  { calls: 1, expiries: 200 },
  { calls: 100, expiries: 20 },
  { calls: 10_000, expiries: 3 },
] as const;
const COMMAND = "pnpm bench";

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
  ]);
  await verify(list, JSON.parse(ACCOUNTS_BODY));
  const measurement = await measure(list, options);
  const lines = [`## ${title}`, intro, overheadTable(measurement.rows, NAMES.raw)];
  const micros = (name: string) => measurement.rows.find((r) => r.name === name)?.microsPerCall;
  if (micros(NAMES.clientAuth) === undefined || micros(NAMES.openapiFetch) === undefined) {
    lines.push("middleware overhead vs bare openapi-fetch: not measured (a row did not run)");
  } else if (withVerdict) {
    const added = addedCost(measurement, NAMES.clientAuth, NAMES.openapiFetch);
    lines.push(
      `**${middlewareVerdict(added)}** (${formatMicros(addedMicros(measurement, NAMES.clientAuth, NAMES.openapiFetch))} per call)`,
      micros(NAMES.clientAuthFetch) === undefined
        ? "auth.fetch as the client's fetch: not measured (the row did not run)"
        : `**${middlewareVerdict(addedCost(measurement, NAMES.clientAuthFetch, NAMES.openapiFetch)).replace("middleware overhead", "auth.fetch (as the client's fetch) overhead")}** (${formatMicros(addedMicros(measurement, NAMES.clientAuthFetch, NAMES.openapiFetch))} per call)`,
      `@engage-voice/client without middleware vs bare openapi-fetch: ${formatPercent(addedCost(measurement, NAMES.client, NAMES.openapiFetch))}; with a one-line header middleware: ${formatPercent(addedCost(measurement, NAMES.clientHeader, NAMES.openapiFetch))} (the floor of any openapi-fetch middleware).`,
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
  const app = sizes.find((s) => s.name === APP_ENTRY_NAME);
  const floor = await measureSize(FLOOR_ENTRY, "browser");
  const gzipOf = (s: Size | SizeFailure | undefined) => (s && isSize(s) ? s.gzip : undefined);
  emit(
    [
      "## 4. Bundle size",
      "esbuild, ESM, minified, of each package's whole public API unless the row says otherwise; gzip level 9. 1 kB = 1,000 bytes. Budgets from `apps/bench/size-budget.json`, enforced by `pnpm test`.",
      sizeTable(sizes, budgets),
      `**${aimVerdict(gzipOf(both))}**`,
      "What an app of the exchange flow ships (the `production` condition, as Vite's and webpack's production builds resolve it), the floor beside it, and what each feature the app does not import by default adds when it does (the same bundle with the feature's import, less the app's imports on the same platform):",
      appTable(app, floor, await measureOptIns()),
      `**${appAimVerdict(gzipOf(app), gzipOf(floor), APP_AIM)}**`,
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
      methodSection({ overhead: OVERHEAD, http: HTTP, concurrency: CONCURRENCY.map((c) => c.calls) }),
    ].join("\n\n"),
  );
  console.log(`Wrote ${file}`);
}
