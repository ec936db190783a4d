// Every command as a real process of the built bin against the sandbox on 127.0.0.1, in both output
// modes, with every exit code; then a scan of every byte written for secrets.
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  API_TOKEN,
  cliIn,
  JWT,
  type Result,
  storedTokens,
  tempHome,
  tokenPath,
  transcript,
} from "./helpers.js";
import { expectNoSecrets } from "./scan.js";

const EXCHANGE = "/api/auth/login/rc/accesstoken";

let sandbox: RunningSandbox;
let home: string;
let cli: ReturnType<typeof cliIn>;
/** Refresh tokens seen in the token files: they must never be printed. */
const refreshTokens = new Set<string>();

/** The global options that point at this sandbox. */
let hosts: string[];

beforeAll(async () => {
  sandbox = await startSandbox({
    faults: { enabled: true },
    // Many logins in one run; the limit itself is tested with an injected 429.
    exchangeRateLimit: { limit: 1000, windowMs: 60_000 },
  });
  hosts = ["--base-url", sandbox.mainUrl, "--legacy-base-url", sandbox.legacyUrl];
  home = await tempHome();
  cli = cliIn(home);
});

afterAll(async () => {
  await sandbox?.stop();
  expectNoSecrets(sandbox, [...refreshTokens]);
});

const ada = () => sandbox.seed.parentTokens.find((p) => p.token.endsWith("-ada"))?.token as string;
const rob = () => sandbox.seed.parentTokens.find((p) => p.token.endsWith("-rob"))?.token as string;
const lee = () => sandbox.seed.legacyLogins[0] as { username: string; password: string; platformId: string };

async function remember(profile: string) {
  const stored = await storedTokens(home, profile, sandbox.mainUrl);
  if (stored.refreshToken) {
    refreshTokens.add(stored.refreshToken);
  }
  return stored;
}

function ok(result: Result): Result {
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result;
}

function failed(result: Result, code: number, message: RegExp): void {
  expect(result.code).toBe(code);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^engage-voice: /);
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
}

describe("login", () => {
  it("exchanges a parent token from stdin and keeps the session in the config folder, mode 0600", async () => {
    const { stdout } = ok(
      await cli(["login", "--rc-token-stdin", "--table", ...hosts], { input: `${ada()}\n` }),
    );
    expect(stdout).toContain(
      `Logged in to ${sandbox.mainUrl} as Ada Example (ada.example@example.com), profile default.`,
    );
    expect(stdout).toContain("Accounts: 99990001 (Sandbox Sales)");
    const file = tokenPath(home, "default", sandbox.mainUrl);
    expect(file.startsWith(join(home, ".config", "engage-voice", "tokens", "default"))).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = await remember("default");
    expect(stored.accessToken).toMatch(JWT);
    const config = await readFile(join(home, ".config", "engage-voice", "config.json"), "utf8");
    expect((await stat(join(home, ".config", "engage-voice", "config.json"))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(config)).toEqual({
      profiles: { default: { baseUrl: sandbox.mainUrl, legacyBaseUrl: sandbox.legacyUrl } },
    });
  });

  it("takes the parent token from ENGAGE_VOICE_RC_TOKEN, into another profile, and prints JSON when piped", async () => {
    const { stdout } = ok(
      await cli(["login", "--profile", "rob", ...hosts], { env: { ENGAGE_VOICE_RC_TOKEN: rob() } }),
    );
    const answer = JSON.parse(stdout);
    expect(answer).toMatchObject({
      profile: "rob",
      baseUrl: sandbox.mainUrl,
      legacyBaseUrl: sandbox.legacyUrl,
      user: { firstName: "Rob", lastName: "Agent", username: "rob.agent@example.com" },
      accountIds: ["99990002"],
    });
    expect(Date.parse(answer.accessTokenExpiresAt)).toBeGreaterThan(Date.now());
    await remember("rob");
  });

  it("refuses a wrong parent token: exit 1, the profile kept as it was", async () => {
    const before = await storedTokens(home, "default", sandbox.mainUrl);
    failed(
      await cli(["login", "--rc-token-stdin"], { input: "sandbox-rc-token-nobody" }),
      1,
      /refused the RingCentral access token \(401\): get a new one and log in again/,
    );
    expect((await storedTokens(home, "default", sandbox.mainUrl)).accessToken).toBe(before.accessToken);
  });

  it("a rate-limited exchange: exit 1 with the wait", async () => {
    sandbox.faults.next({ kind: "rate-limit", retryAfterSeconds: 42, path: EXCHANGE });
    failed(
      await cli(["login", "--rc-token-stdin", "--profile", "limited", ...hosts], { input: ada() }),
      1,
      /rate limiting: try again in 42 s/,
    );
  });
});

describe("token", () => {
  it("prints the bare token, resumed by a new process without a new exchange", async () => {
    const stored = await storedTokens(home, "default", sandbox.mainUrl);
    // Any exchange would now fail: the token must come from the file.
    sandbox.faults.next({ kind: "status", status: 503, path: EXCHANGE, times: 50 });
    try {
      const { stdout } = ok(await cli(["token"]));
      expect(stdout).toBe(`${stored.accessToken}\n`);
      const again = ok(await cli(["token"]));
      expect(again.stdout).toBe(stdout);
      // The profile remembered the host: no --base-url needed. A curl-like use of the token works.
      const response = await fetch(`${sandbox.mainUrl}/voice/api/v1/admin/accounts`, {
        headers: { Authorization: `Bearer ${stdout.trim()}` },
      });
      expect(response.status).toBe(200);
    } finally {
      sandbox.faults.clear();
    }
  });

  it("--json prints the token with its expiry", async () => {
    const { stdout } = ok(await cli(["token", "--json"]));
    const answer = JSON.parse(stdout);
    expect(answer.accessToken).toMatch(JWT);
    expect(Date.parse(answer.expiresAt)).toBeGreaterThan(Date.now());
  });

  it("a session whose refresh token is refused: exit 3, log in again", async () => {
    await cli(["login", "--rc-token-stdin", "--profile", "spent", ...hosts], { input: ada() });
    const file = tokenPath(home, "spent", sandbox.mainUrl);
    const stored = JSON.parse(await readFile(file, "utf8"));
    refreshTokens.add(stored.refreshToken);
    // The access token taken as expired, the refresh token unknown to the server.
    await writeFile(file, JSON.stringify({ ...stored, expiresAt: 0, refreshToken: "unknown-refresh-token" }));
    failed(
      await cli(["token", "--profile", "spent"]),
      3,
      /session of this profile on .* is over: run engage-voice login --profile spent/,
    );
  });
});

describe("accounts", () => {
  it("JSON when stdout is not a terminal", async () => {
    const { stdout } = ok(await cli(["accounts"]));
    const accounts = JSON.parse(stdout);
    expect(accounts.map((a: { accountId: string }) => a.accountId)).toEqual(sandbox.seed.accountIds);
    expect(ok(await cli(["accounts", "--json"])).stdout).toBe(stdout);
  });

  it("a table with --table", async () => {
    const { stdout } = ok(await cli(["accounts", "--table"]));
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ACCOUNT ID\s+NAME\s+MAIN ACCOUNT\s+RC ACCESS\s+ARCHIVED$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/)[0])).toEqual(sandbox.seed.accountIds);
    expect(stdout).toContain("Sandbox Sales");
  });

  it("a GET answered 429 with a short Retry-After is waited for and sent again", async () => {
    sandbox.faults.next({ kind: "rate-limit", retryAfterSeconds: 1, path: "/voice/api/v1/admin/accounts" });
    ok(await cli(["accounts"]));
    expect(sandbox.faults.pending).toBe(0);
  });

  it("a long rate limit: exit 1 with the wait", async () => {
    sandbox.faults.next({ kind: "rate-limit", retryAfterSeconds: 90, path: "/voice/api/v1/admin/accounts" });
    failed(await cli(["accounts"]), 1, /rate limiting: try again in 90 s/);
  });

  it("a server error: exit 1", async () => {
    sandbox.faults.next({ kind: "status", status: 500, path: "/voice/api/v1/admin/accounts", times: 5 });
    try {
      failed(await cli(["accounts"]), 1, /answered 500/);
    } finally {
      sandbox.faults.clear();
    }
  });
});

describe("pointed at a host that does not serve the API", () => {
  const notServed = (host: string) =>
    new RegExp(
      `^engage-voice: ${host} answered 404: it does not serve this API; check --base-url / --legacy-base-url\n$`,
    );

  it("login on the deprecated host (no token exchange there): exit 1, naming the options", async () => {
    const wrong = ["--base-url", sandbox.legacyUrl, "--legacy-base-url", sandbox.legacyUrl];
    const result = await cli(["login", "--rc-token-stdin", "--profile", "lost", ...wrong], { input: ada() });
    failed(result, 1, notServed(sandbox.legacyUrl));
  });

  it("api-tokens on the contact-center host: exit 1, naming the options", async () => {
    ok(await cli(["login", "--rc-token-stdin", "--profile", "swapped", ...hosts], { input: ada() }));
    await remember("swapped");
    const result = await cli([
      "api-tokens",
      "list",
      "--profile",
      "swapped",
      "--legacy-base-url",
      sandbox.mainUrl,
    ]);
    failed(result, 1, notServed(sandbox.mainUrl));
  });
});

describe("users", () => {
  type User = { userName: string; children?: User[] };
  const names = (users: User[]): string[] => users.flatMap((u) => [u.userName, ...names(u.children ?? [])]);

  it("the tree as JSON", async () => {
    const users = JSON.parse(ok(await cli(["users"])).stdout) as User[];
    expect(users).toHaveLength(1);
    expect(users[0]?.children?.length).toBe(2);
    expect(names(users)).toHaveLength(6);
  });

  it("--flatten --active-only as JSON", async () => {
    const flat = JSON.parse(ok(await cli(["users", "--flatten"])).stdout) as User[];
    expect(flat.every((u) => u.children === undefined)).toBe(true);
    expect(flat).toHaveLength(6);
    const active = JSON.parse(ok(await cli(["users", "--flatten", "--active-only"])).stdout) as User[];
    expect(active.map((u) => u.userName)).not.toContain("dee.disabled@example.com");
    expect(active).toHaveLength(5);
  });

  it("the tree as an indented table", async () => {
    const { stdout } = ok(await cli(["users", "--table"]));
    expect(stdout).toMatch(/^USER ID\s+USER NAME\s+NAME\s+ENABLED\s+ROLES$/m);
    expect(stdout).toMatch(/^1001\s+ada\.example@example\.com\s+Ada Example\s+true\s+SUPER_USER$/m);
    expect(stdout).toMatch(/sam\.supervisor@example\.com {4}Sam Supervisor/);
    expect(stdout).toMatch(/rob\.agent@example\.com {11}Rob Agent/);
    expect(stdout).toMatch(/^1005 .*Dee Disabled\s+false\s+USER$/m);
  });

  it("a flat table, active only", async () => {
    const { stdout } = ok(await cli(["users", "--table", "--flatten", "--active-only"]));
    expect(stdout.trimEnd().split("\n")).toHaveLength(6);
    expect(stdout).not.toContain("Dee");
  });

  it("a user without the role: exit 1 with the status", async () => {
    failed(await cli(["users", "--profile", "rob"]), 1, /answered 403.*may not do that/);
  });
});

describe("api-tokens", () => {
  let created: string;

  it("create with the profile's bearer prints the bare token (even piped)", async () => {
    const { stdout } = ok(await cli(["api-tokens", "create"]));
    expect(stdout).toMatch(new RegExp(`^${API_TOKEN.source}\\n$`));
    created = stdout.trim();
    const json = JSON.parse(ok(await cli(["api-tokens", "create", "--json"])).stdout);
    expect(json.apiToken).toMatch(API_TOKEN);
    ok(await cli(["api-tokens", "delete", "--yes", json.apiToken]));
  });

  it("list as JSON and as a table", async () => {
    expect(JSON.parse(ok(await cli(["api-tokens", "list"])).stdout)).toEqual([created]);
    expect(ok(await cli(["api-tokens", "list", "--table"])).stdout).toBe(`API TOKEN\n${created}\n`);
  });

  it("delete --yes, then the token is gone; deleting it again is exit 1", async () => {
    const { stdout } = ok(await cli(["api-tokens", "delete", "--yes", "--table", created]));
    expect(stdout).toBe(`Deleted the permanent API token sbx01:…${created.slice(-4)}.\n`);
    expect(stdout).not.toContain(created);
    expect(JSON.parse(ok(await cli(["api-tokens", "list"])).stdout)).toEqual([]);
    expect(ok(await cli(["api-tokens", "list", "--table"])).stdout).toBe("No permanent API tokens.\n");
    failed(await cli(["api-tokens", "delete", "-y", "--", created]), 1, /404.*no such API token/);
  });

  it("a direct login with --username, --platform-id and --password-stdin", async () => {
    const { username, password, platformId } = lee();
    const login = ["--username", username, "--platform-id", platformId, "--password-stdin"];
    const { stdout } = ok(await cli(["api-tokens", "create", ...login], { input: `${password}\n` }));
    const token = stdout.trim();
    expect(token).toMatch(API_TOKEN);
    expect(JSON.parse(ok(await cli(["api-tokens", "list", ...login], { input: password })).stdout)).toEqual([
      token,
    ]);
    const deleted = ok(
      await cli(["api-tokens", "delete", token, "--yes", "--json", ...login], { input: password }),
    );
    expect(JSON.parse(deleted.stdout)).toEqual({ deleted: `sbx01:…${token.slice(-4)}` });
  });

  it("a wrong password: exit 1", async () => {
    const { username, platformId } = lee();
    failed(
      await cli(
        ["api-tokens", "list", "--username", username, "--platform-id", platformId, "--password-stdin"],
        {
          input: "not-the-password",
        },
      ),
      1,
      /refused the username, password or platform ID \(401\)/,
    );
  });

  it("--debug logs each request without its query or a token, and a failure's stack", async () => {
    const { username, password, platformId } = lee();
    const login = ["--username", username, "--platform-id", platformId, "--password-stdin", "--debug"];
    const created = await cli(["api-tokens", "create", ...login], { input: password });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toMatch(
      new RegExp(`\\[debug\\] POST ${sandbox.legacyUrl}/api/auth/login/admin → 200 in \\d+ ms`),
    );
    expect(created.stderr).not.toContain("?");
    const token = created.stdout.trim();
    const deleted = await cli(["api-tokens", "delete", "--yes", token, ...login], { input: password });
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toContain("DELETE");
    expect(deleted.stderr).toContain("/voice/api/v1/admin/token/{apiToken} → 200");
    const again = await cli(["api-tokens", "delete", "--yes", token, ...login], { input: password });
    expect(again.code).toBe(1);
    // Every line of the stack carries the prefix too.
    expect(again.stderr).toMatch(/^\[debug\] UnexpectedResponseError: .*\n\[debug\]\s+at /m);
  });
});

describe("profiles and logout", () => {
  it("profiles lists each profile's host and session, never a token", async () => {
    const rows = JSON.parse(ok(await cli(["profiles"])).stdout);
    const byName = Object.fromEntries(rows.map((r: { profile: string }) => [r.profile, r]));
    expect(byName.default).toMatchObject({
      current: true,
      baseUrl: sandbox.mainUrl,
      loggedIn: true,
      user: "ada.example@example.com",
      accountIds: ["99990001"],
      renewable: true,
    });
    expect(byName.rob).toMatchObject({ current: false, user: "rob.agent@example.com" });
    const table = ok(await cli(["profiles", "--table"])).stdout;
    expect(table).toMatch(/^\*\s+default\s+http:\/\/127\.0\.0\.1:\d+\s+ada\.example@example\.com/m);
    for (const text of [JSON.stringify(rows), table]) {
      expect(text).not.toMatch(JWT);
      for (const refresh of refreshTokens) {
        expect(text).not.toContain(refresh);
      }
    }
  });

  it("logout forgets the session: then exit 3, and a second logout has nothing to forget", async () => {
    expect(ok(await cli(["logout", "--profile", "rob", "--table"])).stdout).toBe(
      `Logged out of ${sandbox.mainUrl}, profile rob.\n`,
    );
    failed(
      await cli(["token", "--profile", "rob"]),
      3,
      /Not logged in .*run engage-voice login --profile rob/,
    );
    expect(JSON.parse(ok(await cli(["logout", "--profile", "rob"])).stdout)).toEqual({
      profile: "rob",
      baseUrl: sandbox.mainUrl,
      loggedOut: false,
    });
    await expect(stat(tokenPath(home, "rob", sandbox.mainUrl))).rejects.toThrow();
  });

  it("no stack trace anywhere without --debug", () => {
    const plain = transcript.filter((r) => !r.args.includes("--debug"));
    expect(plain.length).toBeGreaterThan(20);
    for (const { stderr } of plain) {
      expect(stderr).not.toMatch(/^\s+at /m);
    }
  });
});
