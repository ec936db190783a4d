// Cold start-up of the command line beside `node -e 0` (the floor any Node bin pays), each a new
// process: `--version`, `--help`, and `token` with a valid stored session that `engage-voice login`
// stored against the bench's loopback server, stopped before timing (a `token` that sent a request
// would fail), beside the floor of that `token`: a ten-line script that reads the same file
// (src/stored-token-script.mjs).
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, test } from "vitest";
import { NODE_FLOOR, TOKEN_FLOOR, TOKEN_ROW } from "../src/cli-rows.ts";
import { startLocalServer } from "../src/local-server.ts";
import { inRounds } from "../src/rounds.ts";

/**
 * Paired: each round runs every command once, the order rotated, so each ratio is between runs of the
 * same moment (a row's iterations back to back would meet a drifting machine at another moment than
 * its reference's: one such run once read `--version` faster than `node -e 0`). Six rounds for each
 * round of the other comparisons.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5) * 6;
const BIN = fileURLToPath(new URL("../../../packages/cli/dist/cli.js", import.meta.url));
const SCRIPT = fileURLToPath(new URL("../src/stored-token-script.mjs", import.meta.url));
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith("ENGAGE_VOICE_")),
);

beforeAll(async () => {
  env.ENGAGE_VOICE_CONFIG_DIR = await mkdtemp(join(tmpdir(), "ev-bench-cli-"));
  const server = await startLocalServer();
  try {
    const args = ["login", "--rc-token-stdin", "--base-url", server.url, "--legacy-base-url", server.url];
    const login = spawn(process.execPath, [BIN, ...args], { env, stdio: ["pipe", "ignore", "inherit"] });
    login.stdin.end("parent-platform-token");
    const [code] = await once(login, "close");
    if (code !== 0) {
      throw new Error(`engage-voice login against the loopback server exited ${code}`);
    }
  } finally {
    await server.stop();
  }
});
afterAll(() => rm(env.ENGAGE_VOICE_CONFIG_DIR ?? "", { recursive: true, force: true }));

function run(...args: string[]) {
  return () => {
    const { status } = spawnSync(process.execPath, args, { stdio: "ignore", env });
    if (status !== 0) {
      throw new Error(`node ${args.join(" ")} exited ${status}`);
    }
  };
}

test("engage-voice start-up", async (context) => {
  // Warm the file cache (and Node's compile cache, as a user's second run finds it) before any pair.
  for (const args of [["-e", "0"], [BIN, "--version"], [BIN, "--help"], [BIN, "token"], [SCRIPT]]) {
    run(...args)();
  }
  await inRounds(
    context,
    NODE_FLOOR,
    [
      [NODE_FLOOR, run("-e", "0")],
      ["engage-voice --version", run(BIN, "--version")],
      ["engage-voice --help", run(BIN, "--help")],
      [TOKEN_ROW, run(BIN, "token")],
      [TOKEN_FLOOR, run(SCRIPT)],
    ],
    ROUNDS,
    { time: 0, iterations: 1, warmupTime: 0, warmupIterations: 0 },
  );
});
