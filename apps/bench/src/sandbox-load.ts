// The sandbox as a user's CI server, under load from autocannon on 127.0.0.1: an authorised `GET` of
// the accounts, beside Prism's mock of the same document and a bare Hono app answering the same
// JSON, at 10 and 50 connections. Each server runs in its own process, whose CPU time over each
// measurement is read from /proc: requests per CPU-second is the figure that holds on a shared
// machine, where requests per second also measure what else the cores were doing (autocannon
// included). Rounds rotate which server goes first; medians with their spread.
// A step of `pnpm bench` (`--json` writes results/sandbox.json, which src/write-benchmarks.ts reads);
// on its own, `pnpm --filter @engage-voice/bench sandbox-load` prints the table (--seconds=N, the
// length of one measurement; --rounds=N, default BENCH_ROUNDS or 5). Needs the sandbox and the test
// kit built.
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startPrism } from "@engage-voice/test-kit/servers";
import autocannon from "autocannon";
import type { ServerReady } from "./sandbox-server.ts";
import { median, spread } from "./spread.ts";
import { ACCOUNTS_PATH } from "./stub.ts";

/** The servers loaded, in the order of the table. */
export const LOADED = ["sandbox", "bare", "prism"] as const;
type Loaded = (typeof LOADED)[number];

export const LOADED_NAMES: Record<Loaded, string> = {
  sandbox: "@engage-voice/sandbox (its command line's process)",
  bare: "a bare Hono app on @hono/node-server answering the same JSON",
  prism: "Prism mock of the same document",
};

/** The aim for the sandbox: at least this share of a bare Hono app's requests per CPU-second. */
export const SANDBOX_AIM = 0.6;

interface LoadFigures {
  /** Requests per second, one figure a round. */
  rps: number[];
  /** Requests per CPU-second of the server's process, one figure a round. */
  perCpuSecond: number[];
  /** 99th percentile latency in ms, one figure a round. */
  p99: number[];
}

export interface SandboxLoadRow {
  connections: number;
  servers: Record<Loaded, LoadFigures>;
}

export interface SandboxLoad {
  seconds: number;
  rounds: number;
  rows: SandboxLoadRow[];
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds a process has used so far (user and system), from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name, in parentheses, may hold spaces: fields are counted after its closing one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

const figure = (digits: number) => (x: number) =>
  x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (x: number) => `${x.toFixed(2)}×`;

/** Per-round ratios of the sandbox's figure to another server's, measured in the same round. */
export const ratiosTo = (row: SandboxLoadRow, other: Loaded, of: "rps" | "perCpuSecond" = "perCpuSecond") =>
  row.servers.sandbox[of].map((x, i) => x / (row.servers[other][of][i] as number));

export function sandboxLoadTable(result: SandboxLoad): string {
  return [
    `\`GET ${ACCOUNTS_PATH}\` with a bearer token, [autocannon](https://github.com/mcollina/autocannon) on 127.0.0.1, each server in its own process; ${result.rounds} round${result.rounds === 1 ? "" : "s"} of ${result.seconds} s per server, their order rotated each round; median [lowest–highest round]. CPU-seconds are the server process's (user + system, /proc).`,
    "",
    "| connections | server | req per CPU-second | sandbox ÷ this one, per CPU-second | req/s | sandbox ÷ this one, req/s | p99 ms |",
    "|---|---|---|---|---|---|---|",
    ...result.rows.flatMap((row) =>
      LOADED.map((name) => {
        const own = row.servers[name];
        const vs = (of: "rps" | "perCpuSecond") =>
          name === "sandbox" ? "" : spread(ratiosTo(row, name, of), ratio);
        return `| ${row.connections} | ${LOADED_NAMES[name]} | ${spread(own.perCpuSecond, figure(0))} | ${vs("perCpuSecond")} | ${spread(own.rps, figure(0))} | ${vs("rps")} | ${spread(own.p99, figure(0))} |`;
      }),
    ),
  ].join("\n");
}

async function load(url: string, pid: number, connections: number, duration: number, token: string) {
  const before = cpuSeconds(pid);
  const result = await autocannon({
    url: `${url}${ACCOUNTS_PATH}`,
    connections,
    duration,
    headers: { authorization: `Bearer ${token}` },
  });
  const cpu = cpuSeconds(pid) - before;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${url} answered ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return { rps: result.requests.average, perCpuSecond: result.requests.total / cpu, p99: result.latency.p99 };
}

async function serverProcess(...args: string[]): Promise<{ child: ChildProcess; ready: ServerReady }> {
  const child = fork(new URL("./sandbox-server.ts", import.meta.url), args, {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: [],
  });
  const [ready] = (await Promise.race([
    once(child, "message"),
    once(child, "exit").then(([code]) => {
      throw new Error(`the ${args[0]} server exited with code ${code} before listening`);
    }),
  ])) as [ServerReady];
  return { child, ready };
}

export async function measureSandboxLoad({ seconds = 5, rounds = 3 } = {}): Promise<SandboxLoad> {
  const children: ChildProcess[] = [];
  const prism = await startPrism();
  try {
    const sandbox = await serverProcess("sandbox");
    children.push(sandbox.child);
    const bare = await serverProcess("bare", JSON.stringify(sandbox.ready.body));
    children.push(bare.child);
    // Prism checks only that a credential is there; the sandbox's token is one.
    const targets: Record<Loaded, { url: string; pid: number }> = {
      sandbox: { url: sandbox.ready.url, pid: sandbox.child.pid as number },
      bare: { url: bare.ready.url, pid: bare.child.pid as number },
      prism: { url: prism.url, pid: prism.child.pid as number },
    };
    const token = sandbox.ready.accessToken;
    const rows: SandboxLoadRow[] = [];
    for (const connections of [10, 50]) {
      const figures = {} as Record<Loaded, LoadFigures>;
      for (const name of LOADED) {
        figures[name] = { rps: [], perCpuSecond: [], p99: [] };
        // Warm each up (JIT, connection pools) before anything is counted.
        await load(targets[name].url, targets[name].pid, connections, 1, token);
      }
      for (let round = 0; round < rounds; round++) {
        // Rotate which goes first, so that none always meets the same moment of the machine.
        const order = LOADED.map((_, i) => LOADED[(i + round) % LOADED.length] as Loaded);
        for (const name of order) {
          const measured = await load(targets[name].url, targets[name].pid, connections, seconds, token);
          figures[name].rps.push(measured.rps);
          figures[name].perCpuSecond.push(measured.perCpuSecond);
          figures[name].p99.push(measured.p99);
        }
      }
      rows.push({ connections, servers: figures });
    }
    return { seconds, rounds, rows };
  } finally {
    for (const child of children) {
      child.disconnect();
    }
    await prism.stop();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string", default: "5" },
      rounds: { type: "string", default: process.env.BENCH_ROUNDS ?? "5" },
      json: { type: "string" },
    },
  });
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  if (!Number.isInteger(seconds) || seconds < 1 || !Number.isInteger(rounds) || rounds < 1) {
    console.error(
      "Usage: sandbox-load [--seconds=N] [--rounds=N] [--json=FILE], N a whole number of at least 1",
    );
    process.exit(2);
  }
  const result = await measureSandboxLoad({ seconds, rounds });
  if (values.json) {
    writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
  }
  console.log(sandboxLoadTable(result));
  const bare = result.rows.flatMap((row) => ratiosTo(row, "bare"));
  console.log(
    `\nsandbox ÷ bare Hono, per CPU-second, every round of every row: median ${median(bare).toFixed(2)}×`,
  );
}
