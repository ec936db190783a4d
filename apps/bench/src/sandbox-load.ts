// The sandbox as a user's CI server, under load from autocannon on 127.0.0.1: an authorised `GET` of
// the accounts, beside Prism's mock of the same document and a bare Hono app answering the same
// JSON, at 10 and 50 connections. Rounds rotate which server goes first, so that the ratios compare
// figures taken at the same load of the machine; medians with their spread.
// On demand, not part of `pnpm bench`: `pnpm --filter @engage-voice/bench sandbox-load` prints the
// table (--seconds=N, the length of one measurement; --rounds=N).
// Needs the sandbox and the test kit built.
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { startPrism } from "@engage-voice/test-kit/servers";
import autocannon from "autocannon";
import { median } from "./spread.ts";
import { ACCOUNTS_PATH } from "./stub.ts";

/** The servers loaded, in the order of the table. */
const LOADED = ["sandbox", "prism", "bare"] as const;
type Loaded = (typeof LOADED)[number];

const LOADED_NAMES: Record<Loaded, string> = {
  sandbox: "@engage-voice/sandbox",
  prism: "Prism mock of the same document",
  bare: "a bare Hono app answering the same JSON",
};

interface LoadFigures {
  /** Requests per second, one figure a round. */
  rps: number[];
  /** 99th percentile latency in ms, one figure a round. */
  p99: number[];
}

interface SandboxLoadRow {
  connections: number;
  servers: Record<Loaded, LoadFigures>;
}

interface SandboxLoad {
  seconds: number;
  rounds: number;
  rows: SandboxLoadRow[];
}

const spread = (xs: readonly number[], digits = 0) =>
  `${median(xs).toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })} [${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}]`;

/** Per-round ratios of the sandbox's req/s to another server's, measured in the same round. */
const ratiosTo = (row: SandboxLoadRow, other: Loaded) =>
  row.servers.sandbox.rps.map((rps, i) => rps / (row.servers[other].rps[i] as number));

function sandboxLoadTable(result: SandboxLoad): string {
  return [
    `\`GET ${ACCOUNTS_PATH}\` with a bearer token, [autocannon](https://github.com/mcollina/autocannon) on 127.0.0.1, each server in its own process; ${result.rounds} rounds of ${result.seconds} s per server, their order rotated each round; median [min-max] over the rounds.`,
    "",
    "| connections | server | req/s | p99 ms | sandbox's req/s ÷ this one's (per round) |",
    "|---|---|---|---|---|",
    ...result.rows.flatMap((row) =>
      LOADED.map(
        (name) =>
          `| ${row.connections} | ${LOADED_NAMES[name]} | ${spread(row.servers[name].rps)} | ${spread(row.servers[name].p99)} | ${name === "sandbox" ? "" : `${spread(ratiosTo(row, name), 2)}×`} |`,
      ),
    ),
  ].join("\n");
}

interface Servers {
  sandboxUrl: string;
  bareUrl: string;
  accessToken: string;
}

async function load(url: string, connections: number, duration: number, token: string) {
  const result = await autocannon({
    url: `${url}${ACCOUNTS_PATH}`,
    connections,
    duration,
    headers: { authorization: `Bearer ${token}` },
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${url} answered ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return { rps: result.requests.average, p99: result.latency.p99 };
}

async function measureSandboxLoad({ seconds = 5, rounds = 3 } = {}): Promise<SandboxLoad> {
  const child: ChildProcess = fork(new URL("./sandbox-server.ts", import.meta.url), [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: [],
  });
  const prism = await startPrism();
  try {
    const [servers] = (await Promise.race([
      once(child, "message"),
      once(child, "exit").then(([code]) => {
        throw new Error(`the servers exited with code ${code} before listening`);
      }),
    ])) as [Servers];
    // Prism checks only that a credential is there; the sandbox's token is one.
    const urls: Record<Loaded, string> = {
      sandbox: servers.sandboxUrl,
      prism: prism.url,
      bare: servers.bareUrl,
    };
    const rows: SandboxLoadRow[] = [];
    for (const connections of [10, 50]) {
      const figures = {} as Record<Loaded, LoadFigures>;
      for (const name of LOADED) {
        figures[name] = { rps: [], p99: [] };
      }
      // Warm each up (JIT, connection pools) before anything is counted.
      for (const name of LOADED) {
        await load(urls[name], connections, 1, servers.accessToken);
      }
      for (let round = 0; round < rounds; round++) {
        // Rotate which goes first, so that none always meets the same moment of the machine.
        const order = LOADED.map((_, i) => LOADED[(i + round) % LOADED.length] as Loaded);
        for (const name of order) {
          const { rps, p99 } = await load(urls[name], connections, seconds, servers.accessToken);
          figures[name].rps.push(rps);
          figures[name].p99.push(p99);
        }
      }
      rows.push({ connections, servers: figures });
    }
    return { seconds, rounds, rows };
  } finally {
    child.disconnect();
    await prism.stop();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { seconds: { type: "string", default: "5" }, rounds: { type: "string", default: "3" } },
  });
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  if (!Number.isInteger(seconds) || seconds < 1 || !Number.isInteger(rounds) || rounds < 1) {
    console.error("Usage: sandbox-load [--seconds=N] [--rounds=N], N a whole number of at least 1");
    process.exit(2);
  }
  console.log(sandboxLoadTable(await measureSandboxLoad({ seconds, rounds })));
}
