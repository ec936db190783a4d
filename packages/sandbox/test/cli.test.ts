import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { flagRows, parseCliArgs, SANDBOX_FLAGS, sandboxUsage, USAGE } from "../src/cli-args.js";
import { runSandboxCli } from "../src/cli-main.js";
import { describeSandbox } from "../src/node.js";
import { openServer } from "./helpers.js";

describe("the command line", () => {
  it("maps flags to sandbox options", () => {
    expect(parseCliArgs([])).toEqual({ faults: { enabled: false } });
    expect(
      parseCliArgs(["--port-main", "4020", "--port-legacy", "0", "--token-lifetime", "2", "--faults"]),
    ).toEqual({ mainPort: 4020, legacyPort: 0, tokenLifetimeMs: 2000, faults: { enabled: true } });
    expect(parseCliArgs(["--help"])).toBe("help");
  });

  it("sets the limits and seeds extra parent tokens, keeping the seeded ones", () => {
    const options = parseCliArgs([
      "--exchange-limit",
      "50",
      "--users-limit",
      "1000",
      "--parent-token",
      "dev-1=1001",
      "--parent-token",
      "dev-2=1002",
    ]);
    expect(options).toMatchObject({
      exchangeRateLimit: { limit: 50, windowMs: 60_000 },
      usersRateLimit: { limit: 1000, windowMs: 60_000 },
    });
    const tokens = (options as { parentTokens: Record<string, number> }).parentTokens;
    expect(tokens).toMatchObject({
      "dev-1": 1001,
      "dev-2": 1002,
      "sandbox-rc-token-ada": expect.any(Number),
    });
  });

  it.each([
    [["--port-main", "70000"], /--port-main must be an integer from 0 to 65535/],
    [["--token-lifetime", "0"], /--token-lifetime must be an integer from 1 to 86400/],
    [["--token-lifetime", "1.5"], /--token-lifetime/],
    [["--colour"], /^The sandbox has no option "--colour" \(it takes --port-main, /],
    [["--port-mian", "4020"], /^The sandbox has no option "--port-mian": did you mean --port-main\?/],
    [["--fault"], /did you mean --faults\?/],
    // A value given with = is never quoted back.
    [
      ["--parent-tokn=secret-token=1001"],
      /^The sandbox has no option "--parent-tokn": did you mean --parent-token\?/,
    ],
    [["--exchange-limit", "0"], /--exchange-limit must be an integer from 1/],
    [["--parent-token", "no-user-id"], /--parent-token must be TOKEN=USER_ID/],
  ])("rejects %j", (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(message);
  });

  it("prints the limits in force and whether faults can be injected", async () => {
    const sandbox = await openServer({
      tokenLifetimeMs: 2000,
      exchangeRateLimit: { limit: 7, windowMs: 30_000 },
      faults: { enabled: true },
    });
    const text = describeSandbox(sandbox);
    expect(text).toContain("access tokens live 2 s; the exchange allows 7 calls in 30 s");
    expect(text).toContain("fault injection is on: POST /__sandbox/faults");
    expect(describeSandbox(await openServer())).not.toContain("fault injection");
  });
});

describe("the bin's errors", () => {
  const captured = () => {
    const io = { stdout: "", stderr: "" };
    return {
      io,
      streams: {
        stdout: { write: (text: string) => (io.stdout += text) },
        stderr: { write: (text: string) => (io.stderr += text) },
      },
    };
  };

  it.each(["port-main", "port-legacy"])(
    "a port in use (--%s): one line naming the port and the flag, exit 1",
    async (flag) => {
      const busy = await openServer();
      const port = new URL(busy.mainUrl).port;
      const { io, streams } = captured();
      expect(await runSandboxCli([`--${flag}`, port], streams)).toBe(1);
      expect(io).toEqual({
        stdout: "",
        stderr: `Port ${port} on 127.0.0.1 is in use (--${flag}): pick another with --${flag} N, or leave the flag out for a free port\n`,
      });
    },
  );

  it("a mistyped flag names the nearest one and shows the flags: exit 2", async () => {
    const { io, streams } = captured();
    expect(await runSandboxCli(["--port-mian", "4020"], streams)).toBe(2);
    expect(io.stderr).toMatch(/^The sandbox has no option "--port-mian": did you mean --port-main\?/);
    expect(io.stderr).toContain(USAGE);
  });
});

describe("the flags, one list", () => {
  it("the README's table is SANDBOX_FLAGS, row for row", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    const table = readme.slice(readme.indexOf("| flag | what it does |")).split("\n\n")[0];
    expect(table).toBe(
      [
        "| flag | what it does |",
        "|---|---|",
        ...flagRows().map(([flag, summary]) => `| \`${flag}\` | ${summary} |`),
      ].join("\n"),
    );
  });

  it.each(["engage-voice-sandbox", "engage-voice sandbox"] as const)(
    "the usage of %s names every flag the parser takes, with its summary",
    (command) => {
      const usage = sandboxUsage(command);
      expect(usage.split("\n")[0]).toBe(`Usage: ${command} [options]`);
      const lines = usage.split("\n").slice(2);
      expect(lines).toHaveLength(Object.keys(SANDBOX_FLAGS).length);
      for (const [index, [flag, summary]] of flagRows().entries()) {
        expect(lines[index]?.startsWith(`  ${flag} `)).toBe(true);
        expect(lines[index]?.endsWith(summary.replaceAll("`", ""))).toBe(true);
      }
      expect(usage).not.toContain("`");
    },
  );

  it("the bin's usage is the one for engage-voice-sandbox, and every flag parses", () => {
    expect(USAGE).toBe(sandboxUsage("engage-voice-sandbox"));
    for (const [flag] of flagRows()) {
      const [name, value] = flag.split(" ");
      const argument =
        value === undefined ? undefined : ({ "TOKEN=USER_ID": "t=1001", SCOPE: "global" }[value] ?? "1");
      expect(() => parseCliArgs(argument ? [name as string, argument] : [name as string])).not.toThrow();
    }
  });
});
