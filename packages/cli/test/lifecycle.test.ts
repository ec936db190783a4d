// Time and failure: a token that expires is renewed by `token` with a refresh (no new exchange), and
// a sandbox that is gone is a network error (exit 1). Waits have wide margins: the sandbox's tokens
// live 3 s, and the test waits 5 s past the login.
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliIn, JWT, storedTokens, tempHome } from "./helpers.js";
import { expectNoSecrets } from "./scan.js";

const EXCHANGE = "/api/auth/login/rc/accesstoken";
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let sandbox: RunningSandbox;
let home: string;
let cli: ReturnType<typeof cliIn>;
const refreshTokens: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ tokenLifetimeMs: 3000, faults: { enabled: true } });
  home = await tempHome();
  cli = cliIn(home);
});

afterAll(async () => {
  await sandbox?.stop();
  expectNoSecrets(sandbox, refreshTokens);
});

const ada = () => sandbox.seed.parentTokens.find((p) => p.token.endsWith("-ada"))?.token as string;

describe("an expired access token", () => {
  it("is renewed by `token` with the stored refresh token, not a new exchange", async () => {
    const login = await cli(["login", "--rc-token-stdin", "--base-url", sandbox.mainUrl], { input: ada() });
    expect(login.code).toBe(0);
    const first = await storedTokens(home, "default", sandbox.mainUrl);
    if (first.refreshToken) {
      refreshTokens.push(first.refreshToken);
    }
    await pause(5000);
    sandbox.faults.next({ kind: "status", status: 503, path: EXCHANGE, times: 50 });
    try {
      const { code, stdout, stderr } = await cli(["token"]);
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^${JWT.source}\\n$`));
      expect(stdout.trim()).not.toBe(first.accessToken);
      const renewed = await storedTokens(home, "default", sandbox.mainUrl);
      if (renewed.refreshToken) {
        refreshTokens.push(renewed.refreshToken);
      }
      expect(renewed.accessToken).toBe(stdout.trim());
      expect(renewed.refreshToken).not.toBe(first.refreshToken);
      const response = await fetch(`${sandbox.mainUrl}/voice/api/v1/admin/accounts`, {
        headers: { Authorization: `Bearer ${stdout.trim()}` },
      });
      expect(response.status).toBe(200);
    } finally {
      sandbox.faults.clear();
    }
  });
});

describe("a killed sandbox", () => {
  it("is a network error, exit 1, for login and for API calls", async () => {
    const other = await startSandbox();
    const killedHome = await tempHome();
    const run = cliIn(killedHome);
    const hosts = ["--base-url", other.mainUrl, "--legacy-base-url", other.legacyUrl];
    expect((await run(["login", "--rc-token-stdin", ...hosts], { input: ada() })).code).toBe(0);
    await other.stop();
    for (const args of [["accounts"], ["users", "--table"], ["api-tokens", "list"]]) {
      const { code, stdout, stderr } = await run(args);
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(stderr).toMatch(/^engage-voice: No answer from http:\/\/127\.0\.0\.1:\d+: check your network/);
      expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    }
    const login = await run(["login", "--rc-token-stdin", "--profile", "again", ...hosts], { input: ada() });
    expect(login.code).toBe(1);
    expect(login.stderr).toMatch(/^engage-voice: No answer from .*\n$/);
    const debug = await run(["accounts", "--debug"]);
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(
      /\[debug\] GET http:\/\/127\.0\.0\.1:\d+\/voice\/api\/v1\/admin\/accounts → no answer/,
    );
    expect(debug.stderr).toMatch(/\[debug\] TypeError\n[\s\S]*\[cause\] Error \(ECONNREFUSED\)/);
  });
});
