// Child processes for tests and the root scripts: one to run to its end, one left running (a server,
// a bin) and stopped after, and a script's own stop on Ctrl-C. No test runner is loaded, so the
// node:test suites and the matrix use them too.
//
// Not tinyexec (in the tree through other tools): it kills only the child it started, not what that
// child started (npm, npx and runtimes run their work in grandchildren), and has no wait for a line
// of output; both would have to be written around it.
import { spawn } from "node:child_process";
import { killedWithThisProcess } from "./die-with-parent.js";
import { portInUse } from "./prism.js";

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

export interface RunOptions {
  /** The working directory; this process's by default. */
  cwd?: string;
  /** The whole environment of the child; this process's by default. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Written to the program's stdin, which is then closed; without it, stdin is empty. */
  input?: string;
}

function spawnGroup(command: string, args: readonly string[], options: RunOptions) {
  // Its own process group, so that a timeout or a stop also ends whatever it started; and killed
  // with this process, which no signal to this process's own group would do.
  const child = spawn(command, args, {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  return { child, groupEnded: killedWithThisProcess(child, { group: true }) };
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  try {
    if (pid !== undefined) {
      process.kill(-pid, signal);
    }
  } catch {
    // The group has already gone.
  }
}

/**
 * Runs a program to completion and collects its output, as a user's shell would. After `timeoutMs`
 * (2 minutes by default) its whole process group is killed, so a hang fails with what it printed.
 */
export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const { child } = spawnGroup(command, args, options);
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
      signalGroup(child.pid, "SIGKILL");
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
  options: RunOptions = {},
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

/** A program left running (a server), with what it has printed so far. */
export interface StartedProcess {
  readonly output: { stdout: string; stderr: string };
  /** Whether it has exited. */
  readonly exited: boolean;
  /**
   * Resolves once its stdout or stderr matches `pattern`; rejects if the program exits first or
   * `timeoutMs` passes.
   */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /**
   * Sends `signal` to its process group (as Ctrl-C in a terminal does), also when the program itself
   * has exited, and resolves with the program's exit code once the whole group has ended; after
   * `timeoutMs` the group is killed and the promise rejects.
   */
  stop(signal: NodeJS.Signals, timeoutMs: number): Promise<number | null>;
}

export function startProcess(
  command: string,
  args: readonly string[],
  options: Omit<RunOptions, "input" | "timeoutMs"> = {},
): StartedProcess {
  const { child, groupEnded } = spawnGroup(command, args, options);
  child.stdin.end();
  const output = { stdout: "", stderr: "" };
  // Once the group is known to be empty its ID may be handed out again: it is never signalled after.
  let groupGone = false;
  void groupEnded.then(() => {
    groupGone = true;
  });
  let exit: { code: number | null } | undefined;
  const exited = new Promise<void>((resolve) => {
    child.on("close", (code) => {
      exit = { code };
      resolve();
    });
    child.on("error", (error) => {
      output.stderr += `could not start ${command}: ${error.message}\n`;
      exit = { code: null };
      resolve();
    });
  });
  const seen = (pattern: RegExp) => output.stdout.match(pattern) ?? output.stderr.match(pattern);
  const printed = new EventTarget();
  for (const stream of ["stdout", "stderr"] as const) {
    child[stream].setEncoding("utf8").on("data", (chunk: string) => {
      output[stream] += chunk;
      printed.dispatchEvent(new Event("data"));
    });
  }
  const within = <T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${command} ${what} within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  };
  return {
    output,
    get exited() {
      return exit !== undefined;
    },
    waitForOutput(pattern, timeoutMs) {
      let look = () => {};
      const found = new Promise<RegExpMatchArray>((resolve, reject) => {
        look = () => {
          const match = seen(pattern);
          if (match) {
            resolve(match);
          }
        };
        printed.addEventListener("data", look);
        look();
        void exited.then(() => reject(new Error(`${command} exited before printing ${pattern}`)));
      });
      return within(found, timeoutMs, `printed no ${pattern}`).finally(() =>
        printed.removeEventListener("data", look),
      );
    },
    async stop(signal, timeoutMs) {
      // The group, not the program: a launcher that has exited may have left a server in it.
      if (!groupGone) {
        signalGroup(child.pid, signal);
      }
      try {
        await within(
          Promise.all([exited, groupEnded]),
          timeoutMs,
          `did not end, with its group, on ${signal}`,
        );
      } catch (error) {
        if (!groupGone) {
          signalGroup(child.pid, "SIGKILL");
        }
        await exited;
        throw error;
      }
      return exit?.code ?? null;
    },
  };
}

/**
 * For a script that runs servers until Ctrl-C (`pnpm start`, `pnpm mock`): on SIGINT or SIGTERM it
 * runs every `add`ed stop, then exits 0. The handlers are in place from the call on, so a signal that
 * comes while the servers start (a CI job that got its answer from a readiness probe) is acted on at
 * `ready()`, once everything started can be stopped, instead of leaving a half-started server behind.
 */
export function stopOnSignals(): { add(stop: () => Promise<unknown>): void; ready(): void } {
  const stops: (() => Promise<unknown>)[] = [];
  let requested = false;
  let isReady = false;
  let stopping = false;
  const stopAll = async () => {
    if (stopping) {
      return;
    }
    stopping = true;
    await Promise.all(stops.map((stop) => stop()));
    process.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      requested = true;
      if (isReady) {
        void stopAll();
      }
    });
  }
  return {
    add(stop) {
      stops.push(stop);
    },
    ready() {
      isReady = true;
      if (requested) {
        void stopAll();
      }
    },
  };
}

/**
 * The port a script's user asked for in the environment variable `variable`, else `fallback` (which
 * may be none). Refused in one line on stderr, before anything starts, when it is not a port (exit 2)
 * or is in use on 127.0.0.1 (exit 1): it was asked for, so another would surprise. `command` is how
 * the user ran the script, for the message (`pnpm mock`).
 */
export async function chosenPort(
  variable: string,
  command: string,
  fallback?: number,
): Promise<number | undefined> {
  const value = process.env[variable];
  const port = value === undefined || value === "" ? fallback : Number(value);
  if (port === undefined) {
    return undefined;
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    process.stderr.write(`${command}: ${variable} must be a port number from 1 to 65535\n`);
    process.exit(2);
  }
  if (await portInUse(port)) {
    process.stderr.write(
      `${command}: port ${port} on 127.0.0.1 is in use: stop what holds it, or pick another with ${variable}=${port + 1} ${command}\n`,
    );
    process.exit(1);
  }
  return port;
}
