// `pnpm --filter @engage-voice/bench sandbox-load`: the sandbox as a user's CI server, under load
// from autocannon on 127.0.0.1: an authorised `GET` of the accounts, beside a bare Hono app
// answering the same JSON, at 10 and 50 connections. Rounds alternate the two servers, so that the
// ratio compares figures taken at the same load of the machine; medians with their spread.
//   --seconds=N   length of one measurement (default 5)   --rounds=N   rounds (default 3)
// Needs the sandbox built (`pnpm --filter @engage-voice/sandbox build`).
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { ACCOUNTS_PATH } from "./stub.ts";

interface Servers {
  sandboxUrl: string;
  bareUrl: string;
  accessToken: string;
}

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "5" }, rounds: { type: "string", default: "3" } },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
if (!Number.isInteger(seconds) || seconds < 1 || !Number.isInteger(rounds) || rounds < 1) {
  console.error("Usage: sandbox-load [--seconds=N] [--rounds=N], N a whole number of at least 1");
  process.exit(2);
}

const child: ChildProcess = fork(new URL("./sandbox-server.ts", import.meta.url), [], {
  stdio: ["ignore", "inherit", "inherit", "ipc"],
  execArgv: [],
});
const [servers] = (await Promise.race([
  once(child, "message"),
  once(child, "exit").then(([code]) => {
    throw new Error(`the servers exited with code ${code} before listening`);
  }),
])) as [Servers];

async function load(url: string, connections: number, duration: number, token?: string) {
  const result = await autocannon({
    url: `${url}${ACCOUNTS_PATH}`,
    connections,
    duration,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${url} answered ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const spread = (xs: number[], digits = 0) =>
  `${median(xs).toFixed(digits)} [${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}]`;

const rows: string[] = [];
try {
  for (const connections of [10, 50]) {
    // Warm both up (JIT, connection pools) before anything is counted.
    await load(servers.sandboxUrl, connections, 1, servers.accessToken);
    await load(servers.bareUrl, connections, 1);
    const sandbox: { rps: number; p99: number }[] = [];
    const bare: { rps: number; p99: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so that neither always meets the same moment of the machine.
      if (round % 2 === 0) {
        sandbox.push(await load(servers.sandboxUrl, connections, seconds, servers.accessToken));
        bare.push(await load(servers.bareUrl, connections, seconds));
      } else {
        bare.push(await load(servers.bareUrl, connections, seconds));
        sandbox.push(await load(servers.sandboxUrl, connections, seconds, servers.accessToken));
      }
    }
    const ratios = sandbox.map((s, i) => s.rps / (bare[i] as { rps: number }).rps);
    rows.push(
      `| ${connections} | ${spread(sandbox.map((s) => s.rps))} | ${spread(sandbox.map((s) => s.p99))} | ${spread(bare.map((b) => b.rps))} | ${spread(bare.map((b) => b.p99))} | ${spread(ratios, 2)}x |`,
    );
  }
} finally {
  child.disconnect();
}

console.log(
  [
    `Sandbox under load: GET ${ACCOUNTS_PATH} with a bearer token, autocannon on 127.0.0.1, ${rounds} rounds of ${seconds} s, median [min-max]`,
    "",
    "| connections | sandbox req/s | sandbox p99 ms | bare Hono req/s | bare Hono p99 ms | sandbox / bare |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n"),
);
