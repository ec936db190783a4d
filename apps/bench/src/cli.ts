// The command line's cost: how long `engage-voice --version`, `--help` and `token` (with a valid stored
// session) take from a cold process, as a ratio to `node -e 0` (the floor any Node bin pays), and how
// big the bin is, as shipped and bundled.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { startSandbox } from "@engage-voice/sandbox";
import { build } from "esbuild";
import { median } from "./measure.ts";
import { REPO_ROOT } from "./pipeline.ts";
import { type Spread, spreadOf, TIME_BUDGETS, verdictOf } from "./verdict.ts";

export const CLI_DIST = join(REPO_ROOT, "packages", "cli", "dist");

/** `engage-voice token` with a valid stored session may take at most this many times `node -e 0`. */
export const TOKEN_START_BUDGET = TIME_BUDGETS.tokenStart.budget;

export interface StartTimes {
  runs: number;
  /** Medians in milliseconds. */
  nodeMs: number;
  versionMs: number;
  helpMs: number;
  tokenMs: number;
  /** `token` / `node -e 0` of each round (the two ran back to back): median and its spread, lowest, highest. */
  tokenRatio: Spread & { low: number; high: number };
}

export interface CliSizes {
  /** Bytes of `dist/` as the tarball ships it (the auth and client packages are dependencies). */
  distBytes: number;
  /** The bin with everything it imports bundled by esbuild (node platform, minified), and gzipped. */
  bundledMinified: number;
  bundledGzip: number;
}

function timeOnce(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: "ignore", env });
  const elapsed = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(`node ${args.join(" ")} exited ${result.status}`);
  }
  return elapsed;
}

/**
 * An environment whose config folder holds a session that `engage-voice login` stored against a
 * sandbox with one-hour tokens. The sandbox is stopped before anything is timed: a `token` that sent
 * a request would fail, not pass slowly.
 */
async function storedSession(bin: string): Promise<{ env: NodeJS.ProcessEnv; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "ev-bench-cli-"));
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("ENGAGE_VOICE_")),
  );
  env.ENGAGE_VOICE_CONFIG_DIR = dir;
  // The sandbox runs in this process: the login is awaited, not run synchronously, so it can answer.
  const sandbox = await startSandbox({ tokenLifetimeMs: 60 * 60_000 });
  try {
    const login = spawn(
      process.execPath,
      [
        bin,
        "login",
        "--rc-token-stdin",
        "--base-url",
        sandbox.mainUrl,
        "--legacy-base-url",
        sandbox.legacyUrl,
      ],
      { env, stdio: ["pipe", "ignore", "pipe"] },
    );
    let stderr = "";
    login.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    login.stdin.on("error", () => {});
    login.stdin.end(sandbox.seed.parentTokens[0]?.token ?? "");
    const [code] = (await once(login, "close")) as [number | null];
    if (code !== 0) {
      throw new Error(`engage-voice login against the sandbox exited ${code}: ${stderr}`);
    }
  } finally {
    await sandbox.stop();
  }
  return { env, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Alternates the four commands `runs` times after two warm-ups of each (the file cache, not the process). */
export async function measureStart(runs = 25): Promise<StartTimes> {
  const bin = join(CLI_DIST, "cli.js");
  const session = await storedSession(bin);
  const commands = {
    node: ["-e", "0"],
    version: [bin, "--version"],
    help: [bin, "--help"],
    token: [bin, "token"],
  };
  const times: Record<keyof typeof commands, number[]> = { node: [], version: [], help: [], token: [] };
  try {
    for (let round = -2; round < runs; round++) {
      for (const [name, args] of Object.entries(commands) as [keyof typeof commands, string[]][]) {
        const elapsed = timeOnce(args, session.env);
        if (round >= 0) {
          times[name].push(elapsed);
        }
      }
    }
  } finally {
    await session.remove();
  }
  const ratios = times.token.map((ms, round) => ms / (times.node[round] as number));
  return {
    runs,
    nodeMs: median(times.node),
    versionMs: median(times.version),
    helpMs: median(times.help),
    tokenMs: median(times.token),
    tokenRatio: { ...spreadOf(ratios), low: Math.min(...ratios), high: Math.max(...ratios) },
  };
}

/** The verdict on `engage-voice token`: the median of its per-round ratios to `node -e 0`, and their spread, against the budget. */
export function tokenStartVerdict(start: StartTimes, budget = TOKEN_START_BUDGET): string {
  const { low, median: mid, spread, high } = start.tokenRatio;
  return `\`engage-voice token\` with a valid stored session: ${mid.toFixed(2)}× ± ${spread.toFixed(2)} \`node -e 0\` (budget ${budget}×): ${verdictOf(start.tokenRatio, { budget })} (median and MAD of the per-round ratios over ${start.runs} rounds, range ${low.toFixed(2)}-${high.toFixed(2)})`;
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
    `| \`engage-voice token\` (a valid stored session) | ${ms(start.tokenMs)} | ${ratio(start.tokenMs)} |`,
    `| \`dist/\` as shipped (auth and client are dependencies) | ${kB(sizes.distBytes)} | |`,
    `| the bin bundled with all it imports (esbuild, node, minified) | ${kB(sizes.bundledMinified)} (${kB(sizes.bundledGzip)} gzip) | |`,
  ].join("\n");
}
