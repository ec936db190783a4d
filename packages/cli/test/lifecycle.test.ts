// Time and failure: a token that expires is renewed with a refresh (no new exchange), and a sandbox
// that is gone is a network error (exit 1). Nothing here waits for a token to age: the CLI is a
// child process with its own clock, so the test expires tokens on both sides instead. The token
// file's expiresAt says "expired" to the CLI, and the sandbox's control makes the server agree.
import { readFile, writeFile } from "node:fs/promises";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliIn, JWT, storedTokens, tempHome, tokenPath } from "./helpers.js";
import { expectNoSecrets } from "./scan.js";

const EXCHANGE = "/api/auth/login/rc/accesstoken";
const REFRESH = "/api/auth/token/refresh";
const ACCOUNTS = "/voice/api/v1/admin/accounts";

let sandbox: RunningSandbox;
let home: string;
let cli: ReturnType<typeof cliIn>;
const refreshTokens: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ faults: { enabled: true }, control: { enabled: true } });
  home = await tempHome();
  cli = cliIn(home);
});

afterAll(async () => {
  await sandbox?.stop();
  expectNoSecrets(sandbox, refreshTokens);
});

const ada = () => sandbox.seed.parentTokens.find((p) => p.token.endsWith("-ada"))?.token as string;

/**
 * Counts the requests to `path` from now on. The sandbox keeps no request log, but it consumes
 * one queued fault per matching request: zero-length delays change nothing else.
 */
function countRequests(path: string, upTo = 5): () => number {
  for (let i = 0; i < upTo; i++) {
    sandbox.faults.next({ kind: "delay", ms: 0, path });
  }
  const queued = sandbox.faults.pending;
  return () => queued - sandbox.faults.pending;
}

async function login(profile: string) {
  const { code } = await cli(
    ["login", "--rc-token-stdin", "--profile", profile, "--base-url", sandbox.mainUrl],
    {
      input: ada(),
    },
  );
  expect(code).toBe(0);
  const stored = await storedTokens(home, profile, sandbox.mainUrl);
  if (stored.refreshToken) {
    refreshTokens.push(stored.refreshToken);
  }
  return stored;
}

async function accountsWith(accessToken: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${sandbox.mainUrl}${ACCOUNTS}`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  return { status: response.status, body: await response.text() };
}

describe("an expired access token", () => {
  it("is renewed by `engage-voice token` with the stored refresh token, not a new exchange", async () => {
    const first = await login("default");
    expect(first.refreshToken).toBeDefined();
    const file = tokenPath(home, "default", sandbox.mainUrl);
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, "utf8")), expiresAt: 0 }));
    expect(sandbox.control.expireAccessTokens()).toBeGreaterThan(0);
    expect(await accountsWith(first.accessToken)).toEqual({ status: 401, body: "Jwt is expired" });
    // Any exchange fails: a renewal that fell back to one would not exit 0.
    sandbox.faults.next({ kind: "status", status: 503, path: EXCHANGE, times: 50 });
    const refreshes = countRequests(REFRESH);
    try {
      const { code, stdout, stderr } = await cli(["token"]);
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^${JWT.source}\\n$`));
      expect(refreshes()).toBe(1);
      const renewed = await storedTokens(home, "default", sandbox.mainUrl);
      if (renewed.refreshToken) {
        refreshTokens.push(renewed.refreshToken);
      }
      expect(stdout.trim()).not.toBe(first.accessToken);
      expect(renewed.accessToken).toBe(stdout.trim());
      expect(renewed.refreshToken).toBeDefined();
      expect(renewed.refreshToken).not.toBe(first.refreshToken);
      expect(renewed.expiresAt).toBeGreaterThan(Date.now());
      expect((await accountsWith(stdout.trim())).status).toBe(200);
    } finally {
      sandbox.faults.clear();
    }
  });

  it("that only the server knows is expired is renewed on its 401, and the call is sent again", async () => {
    const first = await login("server-side");
    expect(sandbox.control.expireAccessTokens()).toBeGreaterThan(0);
    sandbox.faults.next({ kind: "status", status: 503, path: EXCHANGE, times: 50 });
    const refreshes = countRequests(REFRESH);
    try {
      const { code, stdout, stderr } = await cli(["accounts", "--profile", "server-side"]);
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(JSON.parse(stdout).map((a: { accountId: string }) => a.accountId)).toEqual(
        sandbox.seed.accountIds,
      );
      expect(refreshes()).toBe(1);
      const renewed = await storedTokens(home, "server-side", sandbox.mainUrl);
      if (renewed.refreshToken) {
        refreshTokens.push(renewed.refreshToken);
      }
      expect(renewed.accessToken).not.toBe(first.accessToken);
      expect(renewed.refreshToken).not.toBe(first.refreshToken);
      expect((await accountsWith(renewed.accessToken)).status).toBe(200);
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
