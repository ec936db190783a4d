// A runtime cell: one runtime binary runs a consumer project's entry file against a fresh sandbox.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { plainEnv } from "@engage-voice/release/env";
import { run, tail } from "@engage-voice/test-kit/processes";
import { type Cell, inTurn } from "../cell.ts";
import { compareResult, expectedResult, parseResultLine } from "../expect.ts";
import { binaryOf, type Runtime } from "../runtimes.ts";
import { type SandboxRun, withSandbox } from "../sandbox.ts";

/** Gives `task` a sandbox to run the scenario against and ends it after: see `sandbox.ts`. */
export type SandboxProvider = <T>(task: (run: SandboxRun) => Promise<T>) => Promise<T>;

export interface ProcessCellOptions {
  name: string;
  runtime: Runtime;
  /** The installed consumer project. */
  consumer: () => Promise<string>;
  /** Arguments to the binary, given the project folder (the entry file last). */
  args: (dir: string) => string[];
  env?: (dir: string) => Record<string, string>;
  /** The version the runtime must report, e.g. /^node 22\./. */
  version: RegExp;
  /** Where `@engage-voice/client` must have resolved: the build of this module format. */
  resolved: RegExp;
  /** Where the consumer must have loaded the sandbox from, when it runs the sandbox itself. */
  sandboxResolved?: RegExp;
  /** The sandbox: by default one the matrix starts on 127.0.0.1. */
  sandbox?: SandboxProvider;
}

function slug(name: string): string {
  return name.replace(/[^a-z0-9]+/gi, "-");
}

export function processCell(options: ProcessCellOptions): Cell {
  const provider = options.sandbox ?? withSandbox;
  return {
    name: options.name,
    async run() {
      const binary = binaryOf(options.runtime);
      const dir = await options.consumer();
      return provider(async ({ config, parentUserId, tokenLifetimeMs }) => {
        const storeDir = join(dir, "stores", slug(options.name));
        await mkdir(storeDir, { recursive: true });
        const storePath = join(storeDir, "tokens.json");
        const result = await inTurn(dir, async () => {
          await writeFile(join(dir, "config.json"), JSON.stringify({ ...config, storePath }));
          return run(binary, options.args(dir), {
            cwd: dir,
            env: plainEnv(options.env?.(dir)),
            timeoutMs: 60_000,
          });
        });
        if (result.code !== 0) {
          const how = result.timedOut ? "timed out" : `exited with ${result.code ?? result.signal}`;
          throw new Error(`${options.name} ${how}\n${tail(result.stdout)}${tail(result.stderr)}`);
        }
        const { runtime, resolved, sandboxResolved, ...scenario } = parseResultLine(result.stdout);
        compareResult(scenario, expectedResult(true, parentUserId, tokenLifetimeMs));
        if (typeof runtime !== "string" || !options.version.test(runtime)) {
          throw new Error(`expected a runtime matching ${options.version}, got ${String(runtime)}`);
        }
        if (typeof resolved !== "string" || !options.resolved.test(resolved)) {
          throw new Error(`@engage-voice/client resolved to ${String(resolved)}, not ${options.resolved}`);
        }
        const from = (file: string) => file.replace(/^.*\/node_modules\//, "");
        if (options.sandboxResolved) {
          if (typeof sandboxResolved !== "string" || !options.sandboxResolved.test(sandboxResolved)) {
            throw new Error(
              `the sandbox resolved to ${String(sandboxResolved)}, not ${options.sandboxResolved}`,
            );
          }
          return `${runtime}, ${from(resolved)}, ${from(sandboxResolved)} in process`;
        }
        return `${runtime}, ${from(resolved)}`;
      });
    },
  };
}
