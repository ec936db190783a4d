// The command line's cost: how long `engage-voice --version` takes from a cold process, as a ratio
// to `node -e 0` (the floor any Node bin pays), and how big the bin is, as shipped and bundled.
import { spawnSync } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { REPO_ROOT } from "./pipeline.ts";

export const CLI_DIST = join(REPO_ROOT, "packages", "cli", "dist");

export interface StartTimes {
  runs: number;
  /** Medians in milliseconds. */
  nodeMs: number;
  versionMs: number;
  helpMs: number;
}

export interface CliSizes {
  /** Bytes of `dist/` as the tarball ships it (the auth and client packages are dependencies). */
  distBytes: number;
  /** The bin with everything it imports bundled by esbuild (node platform, minified), and gzipped. */
  bundledMinified: number;
  bundledGzip: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

function timeOnce(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: "ignore" });
  const elapsed = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(`node ${args.join(" ")} exited ${result.status}`);
  }
  return elapsed;
}

/** Alternates the three commands `runs` times after two warm-ups of each (the file cache, not the process). */
export function measureStart(runs = 25): StartTimes {
  const bin = join(CLI_DIST, "cli.js");
  const commands = { node: ["-e", "0"], version: [bin, "--version"], help: [bin, "--help"] };
  const times: Record<keyof typeof commands, number[]> = { node: [], version: [], help: [] };
  for (let round = -2; round < runs; round++) {
    for (const [name, args] of Object.entries(commands) as [keyof typeof commands, string[]][]) {
      const elapsed = timeOnce(args);
      if (round >= 0) {
        times[name].push(elapsed);
      }
    }
  }
  return { runs, nodeMs: median(times.node), versionMs: median(times.version), helpMs: median(times.help) };
}

export async function measureCliSizes(): Promise<CliSizes> {
  let distBytes = 0;
  for (const file of await readdir(CLI_DIST)) {
    distBytes += (await stat(join(CLI_DIST, file))).size;
  }
  const result = await build({
    entryPoints: [join(CLI_DIST, "cli.js")],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "silent",
    legalComments: "none",
    // The dynamic import of the command chunk is bundled too.
    splitting: false,
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return {
    distBytes,
    bundledMinified: code.byteLength,
    bundledGzip: gzipSync(code, { level: 9 }).byteLength,
  };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;
const ms = (value: number) => `${value.toFixed(1)} ms`;

export function cliTable(start: StartTimes, sizes: CliSizes): string {
  const ratio = (value: number) => `${(value / start.nodeMs).toFixed(2)}×`;
  return [
    "| measure | value | ratio to `node -e 0` |",
    "|---|---|---|",
    `| \`node -e 0\` (median of ${start.runs} cold processes) | ${ms(start.nodeMs)} | 1.00× |`,
    `| \`engage-voice --version\` | ${ms(start.versionMs)} | ${ratio(start.versionMs)} |`,
    `| \`engage-voice --help\` | ${ms(start.helpMs)} | ${ratio(start.helpMs)} |`,
    `| \`dist/\` as shipped (auth and client are dependencies) | ${kB(sizes.distBytes)} | |`,
    `| the bin bundled with all it imports (esbuild, node, minified) | ${kB(sizes.bundledMinified)} (${kB(sizes.bundledGzip)} gzip) | |`,
  ].join("\n");
}
