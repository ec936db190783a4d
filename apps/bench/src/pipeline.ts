// Wall time of the repository's own pipeline, run from the root in child processes.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** The turbo tasks of the root's `pnpm test` (`turbo run TASK... && biome check ...`), read from there. */
export function testTasks(script: string): string[] {
  const tasks = /^turbo run ([\w:\- ]+?)\s*(&&|$)/.exec(script)?.[1]?.split(/\s+/);
  if (!tasks) {
    throw new Error(`the root package.json's test script does not start with turbo run TASK...: ${script}`);
  }
  return tasks;
}

const rootTest: string = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).scripts.test;

export interface Step {
  name: string;
  command: string[];
}

export interface StepResult {
  name: string;
  command: string;
  seconds: number;
  exitCode: number | null;
  /** The last lines of output, kept when the step failed. */
  tail?: string;
  /** What turbo names as failed ("@engage-voice/docs#test"), when it does. */
  failed?: string;
  /** The run summary turbo wrote (`--summarize`), when it names one. */
  summary?: string;
}

const turbo = ["pnpm", "exec", "turbo", "run"];
const quiet = "--output-logs=errors-only";

/** What `pnpm build` and `pnpm test` run, as separate timed steps. */
export const STEPS: Step[] = [
  { name: "cold build", command: [...turbo, "build", "--force", quiet] },
  { name: "cached rebuild", command: [...turbo, "build", quiet] },
  {
    // The turbo tasks of `pnpm test` as CI runs them on a fresh clone: with the builds they depend on,
    // --force for no cache, --continue to run every package even when one fails. The bench is left
    // out: its test holds BENCHMARKS.md to results.json, which this very run is about to rewrite.
    name: `tests as on a fresh clone: ${testTasks(rootTest).join(", ")} of every package but the bench, with their builds, uncached`,
    command: [
      ...turbo,
      ...testTasks(rootTest),
      "--force",
      "--continue",
      "--filter=!@engage-voice/bench",
      // The summary's task times give the critical path.
      "--summarize",
      quiet,
    ],
  },
  {
    name: "lint: biome check of the repository",
    command: ["pnpm", "exec", "biome", "check", "--error-on-warnings", "."],
  },
];

export function runStep(step: Step, cwd = REPO_ROOT, timeoutMs = 10 * 60_000): Promise<StepResult> {
  return new Promise((resolve) => {
    const start = performance.now();
    const [command, ...args] = step.command as [string, ...string[]];
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.on("close", (exitCode) => {
      clearTimeout(timer);
      const result: StepResult = {
        name: step.name,
        command: step.command.join(" "),
        seconds: (performance.now() - start) / 1000,
        exitCode,
      };
      const summary = /^\s*Summary:\s+(\S+\.json)\s*$/m.exec(output)?.[1];
      if (summary) {
        result.summary = summary;
      }
      if (exitCode !== 0) {
        result.tail = output.trim().split("\n").slice(-12).join("\n");
        const failed = /^\s*Failed:\s+(.+)$/m.exec(output)?.[1]?.trim();
        if (failed) {
          result.failed = failed;
        }
      }
      resolve(result);
    });
  });
}
