// A README's shell walk-through, run as printed: the ```sh blocks between `<!-- name:start -->` and
// `<!-- name:end -->`, in bash, after the README's own `env` block (the variables it tells its reader
// to set), with the test's free ports and URLs in place of the ones it prints. The examples' tests
// run their READMEs this way, so a README line that stops working fails `pnpm test`.
import { dirname } from "node:path";
import { type RunResult, runOk, type StartedProcess, startProcess } from "./processes.js";

/**
 * The lines of the fenced block (```sh, or another language: a program's expected output) between
 * `<!-- name:start -->` and `<!-- name:end -->`.
 */
export function readmeBlock(readme: string, name: string): string[] {
  const body = readme.split(`<!-- ${name}:start -->`)[1]?.split(`<!-- ${name}:end -->`)[0];
  const lines = /```[\w-]*\n([\s\S]*?)```/
    .exec(body ?? "")?.[1]
    ?.trimEnd()
    .split("\n");
  if (!lines) {
    throw new Error(`the README has no fenced block between <!-- ${name}:start --> and <!-- ${name}:end -->`);
  }
  return lines;
}

export interface ReadmeShell {
  /** The environment the blocks run in: the README's `env` block, then the test's values. */
  readonly env: NodeJS.ProcessEnv;
  /**
   * Runs each command line of block `name` on its own, as printed (a line that is only a comment is
   * skipped), and resolves with what each printed; rejects with the output of the first that fails.
   */
  lines(name: string, timeoutMs?: number): Promise<RunResult[]>;
  /** Starts block `name`, one line (a server), as printed, and leaves it running. */
  start(name: string): StartedProcess;
  /** Everything the blocks have printed so far, started ones included: for a scan for secrets. */
  transcript(): string;
}

/**
 * Reads the README's `env` block (an `export NAME=value …` line) the way bash does, then sets `set`
 * over it: each of those must be a variable the block assigns, so the README tells its reader to set
 * every value the test chooses. The blocks then run in bash from `cwd`, on this process's Node.
 */
export async function readmeShell(
  readme: string,
  { cwd, set }: { cwd: string; set: Record<string, string> },
): Promise<ReadmeShell> {
  const envBlock = readmeBlock(readme, "env").join("\n");
  const notTold = Object.keys(set).filter((name) => !new RegExp(`\\b${name}=`).test(envBlock));
  if (notTold.length > 0) {
    throw new Error(`the README's env block does not set ${notTold.join(", ")}`);
  }
  const { stdout } = await runOk("bash", ["-c", `${envBlock}\nenv -0`], { cwd });
  const read = Object.fromEntries(
    stdout
      .split("\0")
      .filter((entry) => entry.includes("="))
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
  // This process's Node first: the README's `node` is the one the test runs on, itself rather than
  // a launcher script (the workspace's), so a signal sent to the program reaches it alone.
  const env = { ...read, ...set, PATH: `${dirname(process.execPath)}:${read.PATH ?? ""}` };
  const printed: RunResult[] = [];
  const started: StartedProcess[] = [];
  return {
    env,
    async lines(name, timeoutMs = 60_000) {
      const results: RunResult[] = [];
      for (const line of readmeBlock(readme, name).filter((text) => !/^\s*(#|$)/.test(text))) {
        const result = await runOk("bash", ["-c", line], { cwd, env, timeoutMs });
        printed.push(result);
        results.push(result);
      }
      return results;
    },
    start(name) {
      const [line, ...more] = readmeBlock(readme, name);
      if (line === undefined || more.length > 0) {
        throw new Error(`the README's ${name} block should be the one line that starts the program`);
      }
      // One simple command: bash execs it, so the program is the process that gets the signals.
      const process = startProcess("bash", ["-c", line], { cwd, env });
      started.push(process);
      return process;
    },
    transcript() {
      return [...printed, ...started.map((process) => process.output)]
        .map(({ stdout, stderr }) => `${stdout}\n${stderr}`)
        .join("\n");
    },
  };
}

/**
 * What in `text` looks like a credential: any of `known` (named by its position, never quoted), a
 * JWT, or a permanent API token of the sandbox. Empty when nothing does.
 */
export function secretsIn(text: string, known: readonly string[]): string[] {
  const found = known.flatMap((secret, index) => (text.includes(secret) ? [`known secret #${index}`] : []));
  if (/eyJ[\w-]{8,}\.[\w-]{8,}/.test(text)) {
    found.push("a JWT");
  }
  if (/sbx01:[\w-]{8,}/.test(text)) {
    found.push("a permanent API token");
  }
  return found;
}
