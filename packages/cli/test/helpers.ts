// Runs the built bin as a real child process, with an isolated config folder and an environment
// that holds nothing of the machine's but PATH. Every byte it writes is kept for the secret scan.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "cli.js");

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every output of every process of this test file, for the scans (test/per-file.ts empties it). */
export const transcript: { args: string[]; stdout: string; stderr: string }[] = [];

export interface RunOptions {
  /** Written to stdin, then closed (a promise: once it settles). Without it stdin is an empty pipe. */
  input?: string | Promise<string>;
  env?: Record<string, string>;
  /** Called with all of stderr so far, on each chunk: a test can wait for a line while the child runs. */
  onStderr?: (stderr: string) => void;
}

const homes: string[] = [];

/** Removes the temp homes made so far: test/per-file.ts calls it when each test file is done. */
export async function removeTempHomes(): Promise<void> {
  await Promise.all(homes.splice(0).map((home) => rm(home, { recursive: true, force: true })));
}

export async function tempHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "engage-voice-cli-"));
  homes.push(home);
  return home;
}

/** A function that runs `engage-voice ...args` with `home` as HOME and XDG_CONFIG_HOME=`home`/.config. */
export function cliIn(home: string) {
  return (args: string[], options: RunOptions = {}): Promise<Result> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        env: {
          PATH: process.env.PATH ?? "",
          HOME: home,
          XDG_CONFIG_HOME: join(home, ".config"),
          ...options.env,
        },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
        options.onStderr?.(stderr);
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        transcript.push({ args, stdout, stderr });
        resolve({ code, stdout, stderr });
      });
      // A child that exits without reading its stdin (a usage error, --version) breaks the pipe:
      // its exit code tells the test what happened, an EPIPE here would only fail the whole run.
      child.stdin.on("error", () => {});
      void Promise.resolve(options.input ?? "").then((input) => child.stdin.end(input));
    });
}

export function tokenPath(home: string, profile: string, origin: string): string {
  const url = new URL(origin);
  return join(
    home,
    ".config",
    "engage-voice",
    "tokens",
    profile,
    `${url.protocol.slice(0, -1)}_${url.hostname}${url.port ? `_${url.port}` : ""}.json`,
  );
}

export async function storedTokens(
  home: string,
  profile: string,
  origin: string,
): Promise<{ accessToken: string; refreshToken?: string; expiresAt: number }> {
  return JSON.parse(await readFile(tokenPath(home, profile, origin), "utf8"));
}

export const JWT = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/;
export const API_TOKEN = /sbx01:[0-9a-f-]{36}/;
