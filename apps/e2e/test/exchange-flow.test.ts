// End to end: @engage-voice/client and @engage-voice/auth, as published (their dist), against the
// sandbox with 2-second access tokens in real time (no fake clock anywhere on the client side).
// Calls are counted by a fetch wrapper, so "one refresh" means one refresh request on the wire.
import {
  apiTokenMiddleware,
  apiTokens,
  CredentialRejectedError,
  createTokenManager,
  ExchangeRejectedError,
  type Logger,
  LoginRejectedError,
  legacyLogin,
  memoryStore,
  NetworkError,
  RateLimitedError,
  ReauthRequiredError,
  RefreshRejectedError,
  type TokenManagerOptions,
  UnexpectedResponseError,
} from "@engage-voice/auth";
import { callDefaults, createClient, createLegacyClient, isApiError } from "@engage-voice/client";
import { type RunningSandbox, type StartSandboxOptions, startSandbox } from "@engage-voice/sandbox";
import { decodeClaims } from "@engage-voice/sandbox/app";
import { fakeClock, refresh, stoppedAfterEach } from "@engage-voice/test-kit";
import { describe, expect, it } from "vitest";

const openSandbox = stoppedAfterEach(startSandbox);
/** A sandbox that is stopped after the current test. */
const open = (options: StartSandboxOptions = {}) => openSandbox(options);
const manualClock = () => fakeClock(Date.UTC(2030, 0, 1, 12, 0, 0));

const LIFETIME_MS = 2000;
const ADA = "sandbox-rc-token-ada";
const LEE = {
  username: "lee.legacy@example.com",
  password: "sandbox-password",
  platformId: "sandbox-platform",
};

const many = <T>(count: number, task: () => Promise<T>) => Promise.all(Array.from({ length: count }, task));

/** Counts requests per endpoint and `Jwt is expired` answers, and remembers when each refresh was sent. */
function wire(now: () => number = Date.now) {
  const calls = { exchange: 0, refresh: 0, accounts: 0, expired: 0 };
  const refreshSentAt: number[] = [];
  const fetchCounted = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth/login/rc/accesstoken") {
      calls.exchange++;
    }
    if (path === "/api/auth/token/refresh") {
      calls.refresh++;
      refreshSentAt.push(now());
    }
    if (path === "/voice/api/v1/admin/accounts") {
      calls.accounts++;
    }
    const response = await fetch(request);
    if (response.status === 401 && (await response.clone().text()) === "Jwt is expired") {
      calls.expired++;
    }
    return response;
  };
  return { calls, refreshSentAt, fetch: fetchCounted };
}

/** Collects log lines, so that a test can check none of them holds a secret. */
function logger() {
  const lines: string[] = [];
  const log: Logger = {
    debug: (m) => lines.push(m),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };
  return { lines, log };
}

async function setup(options: Partial<TokenManagerOptions> = {}, sandboxOptions = {}) {
  // A clock that moves only when a test moves it (control.advance): real time passing on a busy
  // machine must not expire a token between two steps of a test.
  const sandbox = await open({
    tokenLifetimeMs: LIFETIME_MS,
    faults: { enabled: true },
    control: { enabled: true },
    now: manualClock().now,
    ...sandboxOptions,
  });
  const counted = wire(() => sandbox.control.now());
  const logs = logger();
  const store = memoryStore();
  const auth = createTokenManager({
    baseUrl: sandbox.mainUrl,
    rcAccessToken: ADA,
    fetch: counted.fetch,
    store,
    tenant: "acme",
    logger: logs.log,
    // The manager reads the sandbox's clock, which the tests move: no verdict waits on the wall clock.
    clock: { now: () => sandbox.control.now() },
    ...options,
  });
  const client = createClient({ baseUrl: sandbox.mainUrl, fetch: counted.fetch });
  client.use(auth.middleware);
  return { sandbox, auth, client, store, logs, ...counted };
}

/** The expiry of an access token on the sandbox's clock. */
const expiryOf = (accessToken: string) => (decodeClaims(accessToken)?.exp as number) * 1000;

describe("the exchange flow with 2 s tokens", () => {
  it("exchanges once for the first calls, and the session names the account", async () => {
    const { auth, client, calls } = await setup();
    const answers = await many(20, () => client.GET("/voice/api/v1/admin/accounts"));
    expect(answers.every(({ response }) => response.status === 200)).toBe(true);
    expect(answers[0]?.data?.map((account) => account.accountId)).toEqual([
      "99990001",
      "99990002",
      "99990003",
    ]);
    expect(calls.exchange).toBe(1);
    expect(calls.refresh).toBe(0);
    expect(auth.session()).toMatchObject({ accountIds: ["99990001"], mainAccountId: "99990000" });
  });

  it("refreshes ahead of expiry: the refresh goes out before the token expires, and no call sees it expired", async () => {
    const { sandbox, auth, client, calls, refreshSentAt } = await setup({ refreshWindow: () => 1000 });
    const first = await auth.getAccessToken();
    const expiresAt = expiryOf(first);
    while (calls.refresh === 0 && sandbox.control.now() < expiresAt + 1000) {
      expect((await client.GET("/voice/api/v1/admin/accounts")).response.status).toBe(200);
      sandbox.control.advance(50);
    }
    expect(calls.refresh).toBe(1);
    expect(refreshSentAt[0]).toBeLessThan(expiresAt);
    // The refresh went out in the background: joining it (not starting another) gives its token.
    const second = (await auth.refresh()).accessToken;
    expect(second).not.toBe(first);
    // The manager takes a token to expire a second early (whole-second claims), so the refresh can go
    // out within the second the first token was issued in: the new token then carries the same exp.
    expect(expiryOf(second)).toBeGreaterThanOrEqual(expiresAt);
    expect(calls.expired).toBe(0);
    expect(calls.exchange).toBe(1);
  });

  it("rotates across many cycles with one exchange and never sends a spent refresh token", async () => {
    const { sandbox, auth, client, calls, store, logs } = await setup();
    for (let i = 0; i < 20; i++) {
      await auth.refresh();
      expect((await client.GET("/voice/api/v1/admin/accounts")).response.status).toBe(200);
    }
    // Then three natural expiries, with calls every 100 ms of the sandbox's clock.
    const until = sandbox.control.now() + 3 * LIFETIME_MS + 300;
    while (sandbox.control.now() < until) {
      expect((await client.GET("/voice/api/v1/admin/accounts")).response.status).toBe(200);
      sandbox.control.advance(100);
    }
    expect(calls.exchange).toBe(1);
    expect(calls.refresh).toBeGreaterThanOrEqual(23);
    // A spent token sent even once would have revoked the session; the stored one is the live one.
    // The last call may have started a renewal in the background: it is joined first, so the store
    // is read after its set, however slowly a busy machine ran it.
    await auth.refresh();
    const stored = await store.get();
    const direct = await refresh(sandbox.mainUrl, stored?.refreshToken as string);
    expect(direct.status).toBe(200);
    for (const line of logs.lines) {
      expect(line).not.toContain(stored?.refreshToken as string);
    }
  });

  it("serves hundreds of concurrent calls across an expiry with one refresh", async () => {
    const { sandbox, client, auth, calls } = await setup();
    const token = await auth.getAccessToken();
    sandbox.control.advance(Math.max(0, expiryOf(token) - sandbox.control.now()) + 50);
    const answers = await many(300, () => client.GET("/voice/api/v1/admin/accounts"));
    expect(answers.map(({ response }) => response.status)).toEqual(Array(300).fill(200));
    expect(calls.refresh).toBe(1);
    expect(calls.exchange).toBe(1);
  });

  it("survives a lost refresh answer: the retry finds the token spent and exchanges once", async () => {
    const { sandbox, auth, client, calls } = await setup();
    await auth.getAccessToken();
    sandbox.faults.next({ kind: "drop-after-refresh" });
    await expect(auth.refresh()).rejects.toBeInstanceOf(NetworkError);
    expect(calls.refresh).toBe(1);
    // The sandbox rotated before the connection dropped: the manager's token is now spent.
    const renewed = await auth.refresh();
    expect(renewed.refreshToken).toEqual(expect.any(String));
    expect(calls.refresh).toBe(2);
    expect(calls.exchange).toBe(2);
    expect((await client.GET("/voice/api/v1/admin/accounts")).response.status).toBe(200);
  });

  it("replaces a dead refresh token with one new exchange, and asks for reauthentication when that fails", async () => {
    let parent = ADA;
    const { sandbox, auth, client, calls, store } = await setup({ rcAccessToken: () => parent });
    await auth.getAccessToken();
    const kill = async () => {
      const stolen = (await store.get())?.refreshToken as string;
      expect((await refresh(sandbox.mainUrl, stolen)).status).toBe(200);
      expect((await refresh(sandbox.mainUrl, stolen)).status).toBe(401);
    };
    await kill();
    await auth.refresh();
    expect(calls.exchange).toBe(2);
    expect((await client.GET("/voice/api/v1/admin/accounts")).response.status).toBe(200);

    await kill();
    parent = "a-parent-token-the-platform-revoked";
    const error = await auth.refresh().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReauthRequiredError);
    expect((error as ReauthRequiredError).refreshError).toBeInstanceOf(RefreshRejectedError);
    expect((error as ReauthRequiredError).cause).toBeDefined();
    expect(calls.exchange).toBe(3);
  });

  it("meets the exchange rate limit: the sixth exchange in a minute is a RateLimitedError with Retry-After", async () => {
    const sandbox = await open({ tokenLifetimeMs: LIFETIME_MS });
    const manager = () =>
      createTokenManager({ baseUrl: sandbox.mainUrl, rcAccessToken: ADA, logger: logger().log });
    for (let i = 0; i < 5; i++) {
      await manager().getAccessToken();
    }
    const error = await manager()
      .getAccessToken()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).status).toBe(429);
    expect((error as RateLimitedError).retryAfterMs).toBeGreaterThan(0);
    expect((error as RateLimitedError).retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it("meets the users rate limit: the GET over the limit waits Retry-After once on the sandbox clock, then every GET is 200", async () => {
    const limit = 3;
    const sleeps: number[] = [];
    let advance = (_ms: number) => {};
    const { sandbox, auth } = await setup(
      {
        // The wait moves the sandbox's clock instead of the wall clock: the window passes at once.
        sleep: async (ms) => {
          sleeps.push(ms);
          advance(ms);
        },
      },
      { usersRateLimit: { limit, windowMs: 5_000 } },
    );
    advance = (ms) => sandbox.control.advance(ms);
    const retryAfter: string[] = [];
    // The client's own call policy waits out the 429, on the same sandbox clock.
    const client = createClient({
      baseUrl: sandbox.mainUrl,
      sleep: async (ms) => {
        sleeps.push(ms);
        advance(ms);
      },
      clock: { now: () => sandbox.control.now() },
      fetch: async (request: Request) => {
        const response = await fetch(request);
        if (response.status === 429) {
          retryAfter.push(response.headers.get("Retry-After") ?? "");
        }
        return response;
      },
    });
    client.use(auth.middleware);
    const statuses: number[] = [];
    for (let i = 0; i < limit + 1; i++) {
      statuses.push((await client.GET("/voice/api/v1/admin/users")).response.status);
    }
    expect(statuses).toEqual(Array.from({ length: limit + 1 }, () => 200));
    expect(retryAfter).toEqual(["5"]);
    // Retry-After in full, plus the client's jitter above it (never below).
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(5_000);
    expect(sleeps[0]).toBeLessThanOrEqual(5_000 + callDefaults.retryAfterJitterMs);
  });

  it("reports a 5xx on refresh as a typed, transient error and keeps the current token in use", async () => {
    const { sandbox, auth, client } = await setup();
    const token = await auth.getAccessToken();
    sandbox.faults.next({ kind: "status", status: 503, path: "/api/auth/token/refresh" });
    const error = await auth.refresh().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).status).toBe(503);
    expect(await auth.getAccessToken()).toBe(token);
    expect((await client.GET("/voice/api/v1/admin/accounts")).response.status).toBe(200);
  });

  it("rejects an unknown parent token with ExchangeRejectedError", async () => {
    const { auth } = await setup({ rcAccessToken: "not-a-seeded-parent-token" });
    const error = await auth.getAccessToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeRejectedError);
    expect((error as ExchangeRejectedError).status).toBe(401);
    expect(String(error)).not.toContain("not-a-seeded-parent-token");
  });
});

describe("legacy login and permanent API tokens", () => {
  it("logs in, creates, lists and deletes permanent tokens, with a bearer token and with X-Auth-Token", async () => {
    const sandbox = await open({
      tokenLifetimeMs: LIFETIME_MS,
      control: { enabled: true },
      now: manualClock().now,
    });
    const { log } = logger();
    const tokens = await legacyLogin({ baseUrl: sandbox.legacyUrl, ...LEE, logger: log });
    expect(tokens.agentDetails?.[0]?.username).toBe(LEE.username);
    const withBearer = apiTokens({ baseUrl: sandbox.legacyUrl, auth: { accessToken: tokens.accessToken } });
    const first = await withBearer.create();
    const second = await withBearer.create();
    expect(first).not.toBe(second);
    expect(await withBearer.list()).toEqual([first, second]);

    // A permanent token outlives the 2 s access token that created it.
    sandbox.control.advance(Math.max(0, expiryOf(tokens.accessToken) - sandbox.control.now()) + 50);
    await expect(withBearer.list()).rejects.toBeInstanceOf(CredentialRejectedError);
    const withApiToken = apiTokens({ baseUrl: sandbox.legacyUrl, auth: { apiToken: first } });
    expect(await withApiToken.list()).toEqual([first, second]);
    const legacy = createLegacyClient({ baseUrl: sandbox.legacyUrl });
    legacy.use(apiTokenMiddleware(second, { baseUrl: sandbox.legacyUrl }));
    expect((await legacy.GET("/voice/api/v1/admin/token")).data).toEqual([first, second]);

    // The token that authenticates the call deletes itself, and is gone.
    await withApiToken.delete(first);
    const afterDelete = await withApiToken.list().catch((e: unknown) => e);
    expect(afterDelete).toBeInstanceOf(CredentialRejectedError);
    expect((afterDelete as CredentialRejectedError).status).toBe(401);
    const withSecond = apiTokens({ baseUrl: sandbox.legacyUrl, auth: { apiToken: second } });
    expect(await withSecond.list()).toEqual([second]);
    const unknown = await withSecond.delete(first).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UnexpectedResponseError);
    expect((unknown as UnexpectedResponseError).status).toBe(404);
    expect(String(unknown)).not.toContain(first);
  });

  it("rejects wrong credentials with LoginRejectedError", async () => {
    const sandbox = await open();
    const error = await legacyLogin({
      baseUrl: sandbox.legacyUrl,
      ...LEE,
      password: "wrong",
      logger: logger().log,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoginRejectedError);
    expect((error as LoginRejectedError).status).toBe(401);
  });
});

describe("the client's typed errors for bad input", () => {
  const clock = manualClock();
  let sandbox: RunningSandbox;
  const main = () => createClient({ baseUrl: sandbox.mainUrl });
  const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });
  const exchangeBody = { rcAccessToken: ADA, rcTokenType: "Bearer" } as const;
  const accessToken = async (parent = ADA) =>
    (
      await main().POST("/api/auth/login/rc/accesstoken", {
        body: { ...exchangeBody, rcAccessToken: parent },
      })
    ).data?.accessToken as string;

  function expectApiError(result: { error?: unknown; response: Response }, status: number, message?: RegExp) {
    expect(result.response.status).toBe(status);
    expect(isApiError(result.error)).toBe(true);
    if (message) {
      expect((result.error as { generalMessage: string }).generalMessage).toMatch(message);
    }
  }

  it("answers each kind of bad input with its status and an ApiError, or the text of an expired token", async () => {
    sandbox = await open({ now: clock.now, exchangeRateLimit: { limit: 8, windowMs: 60_000 } });
    const client = main();

    expectApiError(
      // @ts-expect-error: the document requires rcTokenType
      await client.POST("/api/auth/login/rc/accesstoken", { body: { rcAccessToken: ADA } }),
      400,
      /rcTokenType is required/,
    );
    expectApiError(
      await client.POST("/api/auth/login/rc/accesstoken", {
        body: exchangeBody,
        headers: { "Content-Type": "application/json" },
        bodySerializer: JSON.stringify,
      }),
      400,
      /form-encoded/,
    );
    expectApiError(
      await client.POST("/api/auth/login/rc/accesstoken", {
        body: { ...exchangeBody, rcAccessToken: "x".repeat(20_000) },
      }),
      413,
    );
    expectApiError(
      await client.POST("/api/auth/login/rc/accesstoken", {
        body: { ...exchangeBody, rcAccessToken: "unknown" },
      }),
      401,
      /RingCentral access token is invalid/,
    );
    expectApiError(
      await client.POST("/api/auth/token/refresh", {
        body: { refresh_token: "spent", rcTokenType: "Bearer" },
      }),
      401,
    );
    expectApiError(await client.GET("/voice/api/v1/admin/accounts"), 401, /Full authentication is required/);
    expectApiError(
      await client.GET("/voice/api/v1/admin/users", bearer(await accessToken("sandbox-rc-token-rob"))),
      403,
    );

    const token = await accessToken();
    clock.advance(300_000);
    const expired = await client.GET("/voice/api/v1/admin/accounts", bearer(token));
    expect(expired.response.status).toBe(401);
    expect(expired.error).toBe("Jwt is expired");

    const wrongHost = createClient({ baseUrl: sandbox.legacyUrl });
    expectApiError(
      await wrongHost.GET("/voice/api/v1/admin/accounts", bearer(token)),
      404,
      /served by the contact-center host/,
    );

    const legacy = createLegacyClient({ baseUrl: sandbox.legacyUrl });
    expectApiError(
      await legacy.POST("/api/auth/login/admin", { params: { query: { ...LEE, password: "wrong" } } }),
      401,
      /Invalid username, password or platform/,
    );
    expectApiError(
      await legacy.DELETE("/voice/api/v1/admin/token/{apiToken}", {
        params: { path: { apiToken: "sbx01:00000000-0000-4000-8000-000000000000" } },
        ...bearer(await accessToken()),
      }),
      404,
      /does not exist/,
    );

    let limited: { error?: unknown; response: Response } | undefined;
    for (let i = 0; i < 10 && limited?.response.status !== 429; i++) {
      limited = await client.POST("/api/auth/login/rc/accesstoken", { body: exchangeBody });
    }
    expectApiError(limited as { error?: unknown; response: Response }, 429, /Too many token exchanges/);
    expect(Number(limited?.response.headers.get("Retry-After"))).toBeGreaterThan(0);
  });
});
