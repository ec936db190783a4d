// The root README's walk-through of the command line, run as printed from the checkout's root: the
// alias it defines, the sandbox it starts and the lines it sends there (the sandbox on free ports
// instead of 4020 and 4021, which a running `pnpm start` may hold). Its build line is checked, not
// run: a rebuild would delete the chunks the other test files are running.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { BIN, tempHome } from "./helpers.js";

const ROOT = join(BIN, "..", "..", "..", "..");
const readme = await readFile(join(ROOT, "README.md"), "utf8");

/** The lines of the shell block between `<!-- name:start -->` and `<!-- name:end -->`. */
function block(name: string): string[] {
  const body = readme.split(`<!-- ${name}:start -->`)[1]?.split(`<!-- ${name}:end -->`)[0];
  const lines = /```sh\n([\s\S]*?)```/
    .exec(body ?? "")?.[1]
    ?.trim()
    .split("\n");
  if (!lines) {
    throw new Error(
      `README.md has no \`\`\`sh block between <!-- ${name}:start --> and <!-- ${name}:end -->`,
    );
  }
  return lines;
}

/** Runs `lines` in bash from the checkout's root, aliases expanded as in an interactive shell. */
function bash(lines: string[], home: string) {
  const child = spawn("bash", ["-c", ["shopt -s expand_aliases", ...lines].join("\n")], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config") },
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  // bash, and the node it started, as one process group: a failed test leaves neither running.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(-child.pid, "SIGKILL");
    }
  });
  return { child, exited, output: () => ({ stdout, stderr }) };
}

describe("the README's command-line walk-through, from a checkout", () => {
  const [build, alias, ...rest] = block("cli-checkout");

  it("builds the command line package and names its bin", async () => {
    const manifest = JSON.parse(await readFile(join(BIN, "..", "..", "package.json"), "utf8"));
    expect(build).toBe(`pnpm exec turbo run build --filter=${manifest.name}`);
    expect(alias).toBe(
      `alias engage-voice="node $PWD/packages/cli/${manifest.bin["engage-voice"].slice(2)}"`,
    );
    expect(rest).toEqual([]);
  });

  it("logs in to the sandbox it starts and lists its users", async () => {
    const home = await tempHome();
    const sandboxLine = /run `(engage-voice sandbox [^`]+)`/.exec(readme)?.[1]?.replace(/\s+/g, " ");
    expect(sandboxLine).toBe("engage-voice sandbox --port-main 4020 --port-legacy 4021");
    const sandbox = bash([alias as string, (sandboxLine as string).replace(/ (4020|4021)\b/g, " 0")], home);
    while (!sandbox.output().stdout.includes("Ctrl-C stops the sandbox.")) {
      if (sandbox.child.exitCode !== null) {
        throw new Error(`the sandbox ended: ${sandbox.output().stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const url = (name: string) =>
      new RegExp(`\\{${name}\\}\\s+(http://127\\.0\\.0\\.1:\\d+)`).exec(
        sandbox.output().stdout,
      )?.[1] as string;
    const lines = block("cli-sandbox").map((line) =>
      line
        .replaceAll("http://127.0.0.1:4020", url("base_url"))
        .replaceAll("http://127.0.0.1:4021", url("legacy_base_url")),
    );
    const walk = bash([alias as string, "set -e", ...lines], home);
    expect(await walk.exited, walk.output().stderr).toBe(0);
    const [login, users] = walk.output().stdout.split(/\n(?=\[)/);
    expect(JSON.parse(login as string)).toMatchObject({ profile: "sandbox", baseUrl: url("base_url") });
    expect((JSON.parse(users as string) as unknown[]).length).toBeGreaterThan(0);
    process.kill(-(sandbox.child.pid as number), "SIGINT");
    await sandbox.exited;
  });
});
