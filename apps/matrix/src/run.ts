import { spawn } from "node:child_process";

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Written to the program's stdin, which is then closed; without it, stdin is empty. */
  input?: string;
}

/**
 * Runs a program to completion and collects its output. The child gets its own process group so
 * that a timeout also ends whatever it started (npm, a runtime's workers).
 */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    // Closed at once: a program reading stdin gets `input` or nothing, never waits.
    child.stdin.on("error", () => undefined).end(options.input);
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        process.kill(-child.pid, "SIGKILL");
      }
    }, options.timeoutMs ?? 120_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start ${command}: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started, timedOut });
    });
  });
}

/** Runs a program and throws with its output when it does not exit 0. */
export async function runOk(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<RunResult> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    const how = result.timedOut ? "timed out" : `exited with ${result.code ?? result.signal}`;
    throw new Error(`${command} ${args.join(" ")} ${how}\n${tail(result.stdout)}${tail(result.stderr)}`);
  }
  return result;
}

/** The last lines of a program's output, enough to see why it failed. */
export function tail(text: string, lines = 30): string {
  const kept = text.trimEnd().split("\n").slice(-lines).join("\n");
  return kept === "" ? "" : `${kept}\n`;
}

/**
 * The environment of a consumer process: the machine's, without what pnpm and its .bin shims add
 * (`npm_*` settings, `NODE_PATH`, the workspace's .bin folders on PATH), which could let a consumer
 * find a package it never installed.
 */
export function consumerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|NODE_PATH$|NODE_OPTIONS$|INIT_CWD$)/i.test(name)) {
      continue;
    }
    env[name] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(":")
    .filter((entry) => entry !== "" && !entry.includes("node_modules"))
    .join(":");
  return { ...env, ...extra };
}

/** A program left running (a server), with what it has printed so far. */
export interface StartedProcess {
  readonly output: { stdout: string; stderr: string };
  /** Resolves once stdout matches `pattern`; rejects if the program exits first or `timeoutMs` passes. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /**
   * Sends `signal` and resolves with the exit code once the program has exited; after `timeoutMs`
   * its whole process group is killed and the promise rejects.
   */
  stop(signal: NodeJS.Signals, timeoutMs: number): Promise<number | null>;
}

export function startProcess(command: string, args: readonly string[], options: RunOptions): StartedProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const output = { stdout: "", stderr: "" };
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((resolve) => {
    child.on("close", (code, signal) => {
      exit = { code, signal };
      resolve();
    });
    child.on("error", (error) => {
      output.stderr += `could not start ${command}: ${error.message}\n`;
      exit = { code: null, signal: null };
      resolve();
    });
  });
  const killGroup = () => {
    if (child.pid !== undefined && exit === undefined) {
      process.kill(-child.pid, "SIGKILL");
    }
  };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output.stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output.stderr += chunk;
  });
  const within = <T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${command} ${what} within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  };
  return {
    output,
    waitForOutput(pattern, timeoutMs) {
      const seen = new Promise<RegExpMatchArray>((resolve, reject) => {
        const look = () => {
          const match = output.stdout.match(pattern);
          if (match) {
            child.stdout.off("data", look);
            resolve(match);
          }
        };
        child.stdout.on("data", look);
        look();
        void exited.then(() => reject(new Error(`${command} exited before printing ${pattern}`)));
      });
      return within(seen, timeoutMs, `printed no ${pattern}`);
    },
    async stop(signal, timeoutMs) {
      if (exit === undefined && child.pid !== undefined) {
        child.kill(signal);
      }
      try {
        await within(exited, timeoutMs, `did not exit on ${signal}`);
      } catch (error) {
        killGroup();
        await exited;
        throw error;
      }
      return exit?.code ?? null;
    },
  };
}
