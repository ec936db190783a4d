// `pnpm test:sim [--runs N] [--seed S --path P] [--no-shrink]`: the simulation with a budget of its own
// (a soak), or one failing run replayed from the seed and path that its report printed.
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    runs: { type: "string" },
    seed: { type: "string" },
    path: { type: "string" },
    "no-shrink": { type: "boolean" },
  },
  // pnpm passes a lone "--" through.
  args: process.argv.slice(2).filter((arg) => arg !== "--"),
});
const env = {
  ...process.env,
  ...(values.runs ? { SIM_RUNS: values.runs } : {}),
  ...(values.seed ? { SIM_SEED: values.seed } : {}),
  ...(values.path ? { SIM_PATH: values.path } : {}),
  ...(values["no-shrink"] ? { SIM_SHRINK: "0" } : {}),
};
const vitest = new URL("../../node_modules/vitest/vitest.mjs", import.meta.url);
const run = spawnSync(process.execPath, [vitest.pathname, "run", "test/simulation", "--project", "default"], {
  stdio: "inherit",
  env,
  cwd: new URL("../..", import.meta.url),
});
process.exit(run.status ?? 1);
