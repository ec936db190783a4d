// The written method of BENCHMARKS.md. Settings are passed in, so the text states what the run did.
import type { MeasureOptions, PairOptions } from "./measure.ts";
import { TIME_BUDGETS } from "./verdict.ts";

export interface MethodSettings {
  /** Absent when the section did not run. */
  overhead: (MeasureOptions & { pairs?: PairOptions }) | undefined;
  http: MeasureOptions | undefined;
  concurrency: readonly number[];
}

export function methodSection({ overhead, http, concurrency }: MethodSettings): string {
  const pct = (value: number) => `${Math.round(value * 100)}%`;
  const { budget, goal } = TIME_BUDGETS.call;
  const rounds = (o: MeasureOptions | undefined) =>
    o
      ? `${o.rounds} rounds of ${o.time} ms per client after ${o.warmupTime} ms of warm-up${o.clock === "cpu" ? ", timed in the process's CPU time (user + system, from `process.cpuUsage()`, its own cost subtracted) rather than wall time, as `--clock=cpu` asks: other work on a shared machine moves it far less" : ""}`
      : "not run";
  const pairs = overhead?.pairs;
  return `## Method

**What is measured.** Every client makes the same call, \`GET /voice/api/v1/admin/accounts\` with a
bearer token, and resolves to the parsed JSON body (two small account records). The clients:

- **raw fetch**: \`fetch(url, { headers })\` then \`response.json()\`, the floor every other row is compared with;
- **openapi-fetch (bare)**: \`createClient<paths>()\` of openapi-fetch on the generated \`paths\`, with the bearer
  header in its options;
- **@engage-voice/client**: \`createClient()\`, which adds media-type handling (form bodies, text answers) on top;
- **@engage-voice/client + auth middleware**: the same client with \`@engage-voice/auth\`'s middleware, whose
  manager already holds a valid token (obtained through the same fetch before timing starts);
- **@engage-voice/client with fetch: auth.fetch**: the same client with the manager's \`fetch\` as its fetch;
- **auth.client()**: the manager's own client (its fetch is \`auth.fetch\`, its call policy the manager's);
- **@engage-voice/client + a one-line header middleware**: a middleware that only sets the header on the request
  it is given, the floor of any auth middleware;
- **axios**: in the stubbed run, its \`fetch\` adapter driven by the same stubbed fetch; over HTTP, its Node
  default (the \`http\` adapter);
- **@ringcentral/sdk**: \`platform().get()\`, with the Fetch API passed in as its externals and a session loaded
  into its store as a login leaves it, so each call runs its auth check and header logic.

**How.** (1) The stubbed fetch answers every call with a new \`Response\` of a pre-built body: no network, as
openapi-fetch measures its own overhead. Such a call is answered within the turn of the event loop it
started in, so @engage-voice/client sets no deadline timer for it (the timer is set when that turn ends,
for a call still waiting then); over HTTP (2) every call sets one. (2) The same clients over real HTTP to a \`node:http\` server on
127.0.0.1 (port 0) in a separate process, with keep-alive. Each client is checked once for the right answer,
then timed with [tinybench](https://github.com/tinylibs/tinybench):

- stubbed: ${rounds(overhead)};
- HTTP: ${rounds(http)}.

Each round starts with a different client, and a garbage collection runs before each client, so that no row
always runs first or inherits another's garbage. A row's ops/s and µs per call are medians over the rounds;
"time vs raw fetch" is the median of per-round ratios; "±" is the median absolute deviation of ops/s over the
rounds, relative to the median. Each authorised path (the auth middleware, \`auth.fetch\`, \`auth.client()\`) has a
verdict, ${
    pairs
      ? `from a measurement of its own after the table's: ${pairs.pairs} pairs of batches of ${pairs.batch} calls, one batch of the
path and one of bare openapi-fetch back to back, alternating which goes first, so that both halves of a pair
see the same state of a shared machine`
      : "not measured in this run"
  }. The verdict is the median over the pairs of (its time) / (bare
openapi-fetch time) − 1, ± the median absolute deviation (MAD) of those per-pair values, against
a budget of ${pct(budget)} and a goal of ${pct(goal)}. A verdict whose median lies within "±" of the budget says "inside
the noise" (with the side its median is on): that run cannot tell a pass from a fail, and more pairs on a quieter
machine (\`--pairs=N\`) can; a clean PASS says whether the goal was met, by the same rule. The rows without
middleware and with the one-line header middleware are paired the same way; the latter shows what
openapi-fetch's middleware path costs by itself.

(3) Refresh coalescing: a token manager on a stubbed token endpoint, whose clock is moved past the access
token's expiry; then a burst of callers (${concurrency.map((n) => n.toLocaleString("en-US")).join(", ")}) starts in the same tick, once as
\`getAccessToken()\` calls and once as API calls through the client and middleware. Token calls are counted
at the stub, and the token each request carried is read back from it. Each \`getAccessToken()\` call is timed
with \`performance.now()\`: the added latency of a call is its wait across the expiry, next to the wait of
bursts of the same size with a valid token (a few microseconds). Small bursts are repeated over many expiries,
so that their figures are not one sample.

(4) Bundle size: esbuild bundles \`export * from "<package>"\` (the whole public API: an app that imports less
ships less) as minified ESM for the browser platform, from the packages' built \`dist\`; gzip is
\`node:zlib\` at level 9. A package that cannot be bundled for the browser is reported with esbuild's error
and measured for the Node platform instead.

(5) The command line: per round, \`node -e 0\` then each command, cold processes; the \`token\` verdict is the
median over the rounds of (\`token\` time) / (\`node -e 0\` time), "±" its median absolute deviation, against a
budget of ${TIME_BUDGETS.tokenStart.budget}×, inside the noise as above.

(6) Pipeline: wall time of child processes run from the repository root, one after the other. (7) The CI
critical path is read from turbo's run summary (\`--summarize\`) of the tests step.

**What it does not show.** The stubbed run shows the cost of each client's own code, not what a user waits
for: (2) shows how small that is next to even a loopback round trip, and a real one over the internet is
far longer. Throughput is that of one process making one call at a time. Numbers from a shared or busy
machine move between runs (see "±"); compare rows of the same run, not runs of different machines.
`;
}
