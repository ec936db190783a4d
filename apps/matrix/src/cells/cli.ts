// The published @engage-voice/cli on each Node it claims (20, 22, 24): installed with npm, its bin run as
// a shell runs it (`#!/usr/bin/env node`, so that Node first on PATH), against a fresh sandbox.
import { mkdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { plainEnv } from "@engage-voice/release/env";
import { ACCOUNTS } from "@engage-voice/sandbox";
import { type RunResult, run, tail } from "@engage-voice/test-kit/processes";
import type { Cell } from "../cell.ts";
import { binaryOf, type Runtime } from "../runtimes.ts";
import { withSandbox } from "../sandbox.ts";

export interface CliCellOptions {
  name: string;
  runtime: Runtime;
  /** The installed consumer project with the CLI. */
  consumer: () => Promise<string>;
  /** The major version `node` must report. */
  major: number;
}

export function cliCell(options: CliCellOptions): Cell {
  return {
    name: options.name,
    async run() {
      const node = binaryOf(options.runtime);
      const dir = await options.consumer();
      const configDir = join(dir, "config", options.name.replace(/[^a-z0-9]+/gi, "-"));
      await mkdir(configDir, { recursive: true });
      // Without the machine's own ENGAGE_VOICE_ settings: they must not choose a host or a token for it.
      const env = plainEnv({ ENGAGE_VOICE_CONFIG_DIR: configDir, NO_COLOR: "1" });
      env.PATH = `${dirname(node)}:${env.PATH ?? ""}`;
      const outputs: RunResult[] = [];
      const sh = async (command: string, args: string[], input?: string) => {
        const result = await run(command, args, {
          cwd: dir,
          env,
          timeoutMs: 60_000,
          ...(input === undefined ? {} : { input }),
        });
        outputs.push(result);
        if (result.code !== 0) {
          const how = result.timedOut ? "timed out" : `exited with ${result.code ?? result.signal}`;
          throw new Error(`${[command, ...args].join(" ")} ${how}\n${tail(result.stderr)}`);
        }
        return result.stdout;
      };
      const bin = join(dir, "node_modules", ".bin", "engage-voice");

      const version = (await sh("node", ["-p", "process.versions.node"])).trim();
      if (!version.startsWith(`${options.major}.`)) {
        throw new Error(`node on the CLI's PATH is ${version}, not ${options.major}`);
      }
      const help = await sh(bin, ["--help"]);
      if (!/^Usage: engage-voice <command>/m.test(help) || !/^\s+login\s/m.test(help)) {
        throw new Error(`--help printed no usage with its commands:\n${tail(help, 5)}`);
      }
      const manifest = JSON.parse(
        await readFile(join(dir, "node_modules", "@engage-voice", "cli", "package.json"), "utf8"),
      ) as { version: string };
      const printed = (await sh(bin, ["--version"])).trim();
      if (printed !== manifest.version) {
        throw new Error(`--version printed ${JSON.stringify(printed)}, the package is ${manifest.version}`);
      }

      return withSandbox(async ({ config }) => {
        const hosts = ["--base-url", config.mainUrl, "--legacy-base-url", config.legacyUrl];
        await sh(bin, ["login", "--rc-token-stdin", ...hosts], config.rcAccessToken);
        // No host flag: the profile remembers the one `login` was given.
        const listed = JSON.parse(await sh(bin, ["accounts", "--json"])) as { accountId?: unknown }[];
        const ids = listed.map((account) => account.accountId);
        const expected = ACCOUNTS.map((account) => account.accountId);
        if (JSON.stringify(ids) !== JSON.stringify(expected)) {
          throw new Error(`accounts --json listed ${JSON.stringify(ids)}, not ${JSON.stringify(expected)}`);
        }
        const leaked = outputs.some(
          (o) => o.stdout.includes(config.rcAccessToken) || o.stderr.includes(config.rcAccessToken),
        );
        if (leaked) {
          throw new Error("the parent token appeared in the CLI's output");
        }
        return `node ${version}, @engage-voice/cli ${printed}: --help, --version, login, accounts --json`;
      });
    },
  };
}
