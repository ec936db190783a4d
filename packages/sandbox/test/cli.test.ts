import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { flagRows, parseCliArgs, SANDBOX_FLAGS, sandboxUsage, USAGE } from "../src/cli-args.js";
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
    [["--colour"], /Unknown option '--colour'/],
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
      const argument = value === "TOKEN=USER_ID" ? "t=1001" : value ? "1" : undefined;
      expect(() => parseCliArgs(argument ? [name as string, argument] : [name as string])).not.toThrow();
    }
  });
});
