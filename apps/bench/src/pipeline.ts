// Wall time of the repository's own pipeline, run from the root in child processes.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));

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
}

export const STEPS: Step[] = [
  {
    name: "cold build",
    command: ["pnpm", "exec", "turbo", "run", "build", "--force", "--output-logs=errors-only"],
  },
  { name: "cached rebuild", command: ["pnpm", "exec", "turbo", "run", "build", "--output-logs=errors-only"] },
  {
    // --only runs the test tasks alone (builds are already in place), --force skips the cache, and the
    // bench package is left out: its own test is the size budget, and running it here would recurse.
    name: "test suite (every package but the bench)",
    command: [
      "pnpm",
      "exec",
      "turbo",
      "run",
      "test",
      "--only",
      "--force",
      "--filter=!@engage-voice/bench",
      "--output-logs=errors-only",
    ],
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
      if (exitCode !== 0) result.tail = output.trim().split("\n").slice(-12).join("\n");
      resolve(result);
    });
  });
}
