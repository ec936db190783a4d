// `engage-voice sandbox`: the bin starts the sandbox package with its own flags, its printed URLs
// answer, a bad flag is a usage error, and SIGINT stops it with exit code 0.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { sandboxUsage } from "@engage-voice/sandbox/cli";
import { describe, expect, it, onTestFinished } from "vitest";

const bin = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

function start(args: string[]) {
  const child = spawn(process.execPath, [bin, "sandbox", ...args], { env: { PATH: process.env.PATH ?? "" } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // A test that fails before it stops the sandbox must not leave it running after the run.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
    }
  });
  return { child, exited, output: () => ({ stdout, stderr }) };
}

describe("engage-voice sandbox", () => {
  it("starts both hosts with the given limits, answers on the printed URL, and stops on SIGINT", async () => {
    const run = start(["--token-lifetime", "5", "--exchange-limit", "50"]);
    while (!run.output().stdout.includes("Ctrl-C stops the sandbox.")) {
      if (run.child.exitCode !== null) {
        throw new Error(`exited early: ${run.output().stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { stdout } = run.output();
    expect(stdout).toContain("access tokens live 5 s; the exchange allows 50 calls in 60 s");
    const mainUrl = /\{base_url\}\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
    expect(mainUrl).toBeDefined();
    const answer = await fetch(`${mainUrl}/voice/api/v1/admin/accounts`);
    expect(answer.status).toBe(401);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
  });

  it("a bad flag is a usage error (exit 2) that shows the sandbox's flags", async () => {
    const run = start(["--token-lifetime", "0"]);
    expect(await run.exited).toBe(2);
    expect(run.output().stderr).toMatch(/--token-lifetime must be an integer/);
    expect(run.output().stderr).toMatch(/Usage: engage-voice sandbox/);
  });

  it("--help prints the sandbox's own usage text, under this command's name", async () => {
    const run = start(["--help"]);
    expect(await run.exited).toBe(0);
    expect(run.output().stdout).toBe(`${sandboxUsage("engage-voice sandbox")}\n`);
  });
});
