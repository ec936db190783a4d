// The table of the sandbox under load (src/sandbox-load.ts measures it): pure, so that BENCHMARKS.md
// renders from results.json without loading the load generator.
import { median } from "./measure.ts";
import { ACCOUNTS_PATH } from "./stub.ts";

/** The servers loaded, in the order of the table. */
export const LOADED = ["sandbox", "prism", "bare"] as const;
export type Loaded = (typeof LOADED)[number];

export const LOADED_NAMES: Record<Loaded, string> = {
  sandbox: "@engage-voice/sandbox",
  prism: "Prism mock of the same document",
  bare: "a bare Hono app answering the same JSON",
};

export interface LoadFigures {
  /** Requests per second, one figure a round. */
  rps: number[];
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

const spread = (xs: readonly number[], digits = 0) =>
  `${median(xs).toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })} [${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}]`;

/** Per-round ratios of the sandbox's req/s to another server's, measured in the same round. */
export const ratiosTo = (row: SandboxLoadRow, other: Loaded) =>
  row.servers.sandbox.rps.map((rps, i) => rps / (row.servers[other].rps[i] as number));

export function sandboxLoadTable(result: SandboxLoad): string {
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
