import { callDefaults, createClient, createLegacyClient } from "@engage-voice/client";
import { describe, expect, it } from "vitest";
import { apiTokenMiddleware, type EngageVoiceAuthError } from "../src/index.js";
import { ACCOUNTS, BASE, LEGACY_BASE, setup } from "./fake-server.js";

const limited = (retryAfter: string) => ({ status: 429, headers: { "Retry-After": retryAfter } });

describe("an idempotent call answered 408, 429 or 5xx goes again under the call policy", () => {
  const ways = {
    middleware: (s: ReturnType<typeof setup>) => {
      // The client's own policy: the middleware authorises each try.
      const client = createClient({ baseUrl: BASE, fetch: s.server.fetch, ...s.policy });
      client.use(s.auth.middleware);
      return client;
    },
    "auth.client()": (s: ReturnType<typeof setup>) => s.auth.client(),
    "fetch: auth.fetch": (s: ReturnType<typeof setup>) =>
      createClient({ baseUrl: BASE, fetch: s.auth.fetch, ...s.policy }),
  };

  it.each(Object.entries(ways))("through %s, waiting Retry-After", async (_, make) => {
    const s = setup();
    const client = make(s);
    s.server.fail("accounts", limited("2"), limited("3"));
    const { response, data } = await client.GET("/voice/api/v1/admin/accounts");
    expect(response.status).toBe(200);
    expect(data).toEqual(ACCOUNTS);
    expect(s.server.calls.accounts).toBe(3);
    // Each Retry-After in full, plus the client's jitter (the fake hosts' random() is 0.5).
    expect(s.sleeps).toEqual([2_000, 3_000].map((ms) => ms + 0.5 * callDefaults.retryAfterJitterMs));
  });

  it.each([408, 500, 502, 503, 504])(
    "a GET answered %i through auth.fetch alone goes again",
    async (status) => {
      const s = setup();
      s.server.fail("accounts", { status }, { status });
      const response = await s.auth.fetch(`${BASE}/voice/api/v1/admin/accounts`);
      expect(response.status).toBe(200);
      expect(s.server.calls.accounts).toBe(3);
      expect(s.sleeps).toHaveLength(2);
    },
  );

  it("at most maxRetries times, then the answer goes to the caller", async () => {
    const s = setup({ maxRetries: 1 });
    s.server.fail("accounts", limited("1"), limited("1"), limited("1"));
    const { response } = await s.auth.client().GET("/voice/api/v1/admin/accounts");
    expect(response.status).toBe(429);
    expect(s.server.calls.accounts).toBe(2);
  });

  it("a call's own maxRetries wins, through the client and through fetch", async () => {
    const s = setup();
    s.server.fail("accounts", limited("1"), limited("1"), limited("1"), limited("1"));
    const { response } = await s.auth.client().GET("/voice/api/v1/admin/accounts", { maxRetries: 0 });
    expect(response.status).toBe(429);
    expect((await s.auth.fetch(`${BASE}/voice/api/v1/admin/accounts`, { maxRetries: 0 })).status).toBe(429);
    expect(s.server.calls.accounts).toBe(2);
  });

  it("never when Retry-After is longer than the longest wait", async () => {
    const s = setup();
    s.server.fail("accounts", limited(String(callDefaults.maxRetryWaitMs / 1000 + 1)));
    const { response } = await s.auth.client().GET("/voice/api/v1/admin/accounts");
    expect(response.status).toBe(429);
    expect(s.server.calls.accounts).toBe(1);
    expect(s.sleeps).toEqual([]);
  });

  it("never for POST", async () => {
    const s = setup();
    s.server.fail("accounts", { status: 503 });
    const client = s.auth.client() as unknown as {
      POST(path: string, init: object): Promise<{ response: Response }>;
    };
    const { response } = await client.POST("/voice/api/v1/admin/accounts", { body: { x: 1 } });
    expect(response.status).toBe(503);
    expect(s.server.calls.accounts).toBe(1);
  });

  it("not at all when switched off", async () => {
    const s = setup({ maxRetries: 0 });
    s.server.fail("accounts", limited("1"));
    const response = await s.auth.fetch(`${BASE}/voice/api/v1/admin/accounts`);
    expect(response.status).toBe(429);
    expect(s.server.calls.accounts).toBe(1);
  });

  it("each retry is logged with the path template", async () => {
    const s = setup();
    s.server.fail("accounts", { status: 503 });
    await s.auth.client().GET("/voice/api/v1/admin/accounts");
    expect(s.logs).toContainEqual(
      expect.stringMatching(
        /^warn GET \/voice\/api\/v1\/admin\/accounts answered 503: trying again in \d+ ms \(retry 1 of 2\)$/,
      ),
    );
  });
});

describe("the base URL is given once", () => {
  it("auth.client() is a client of the manager's host, authorised by it", async () => {
    const s = setup();
    const client = s.auth.client({ headers: { "X-Trace": "1" } });
    const { response } = await client.GET("/voice/api/v1/admin/accounts");
    expect(response.status).toBe(200);
    const sent = s.server.requests.at(-1) as Request;
    expect(sent.url).toBe(`${BASE}/voice/api/v1/admin/accounts`);
    expect(sent.headers.get("Authorization")).toMatch(/^Bearer /);
    expect(sent.headers.get("X-Trace")).toBe("1");
    expect(sent.redirect).toBe("manual");
  });

  it("the manager's middleware on a client of another origin fails before sending, naming both and the fix", async () => {
    // A default manager (production host) used on a client of a local sandbox: a day-one mistake.
    const s = setup({ baseUrl: undefined as never });
    const client = createClient({ baseUrl: "http://127.0.0.1:4010", fetch: s.server.fetch });
    client.use(s.auth.middleware);
    const error = (await client.GET("/voice/api/v1/admin/accounts").catch((e) => e)) as EngageVoiceAuthError;
    expect(error.code).toBe("origin_mismatch");
    expect(error.message).toContain("http://127.0.0.1:4010");
    expect(error.message).toContain("https://engage.ringcentral.com");
    expect(error.message).toContain("auth.client()");
    expect(s.server.requests).toHaveLength(0);
    expect(s.server.totalTokenCalls()).toBe(0);
  });

  it("localhost and 127.0.0.1 are different origins, and said so", async () => {
    const s = setup({ baseUrl: "http://localhost:4010" });
    const client = createClient({ baseUrl: "http://127.0.0.1:4010", fetch: s.server.fetch });
    client.use(s.auth.middleware);
    await expect(client.GET("/voice/api/v1/admin/accounts")).rejects.toMatchObject({
      code: "origin_mismatch",
    });
  });

  it("apiTokenMiddleware without a baseUrl authorises the legacy client it is used on", async () => {
    const s = setup();
    const permanent = await s.server.addApiToken();
    const legacy = createLegacyClient({ baseUrl: LEGACY_BASE, fetch: s.server.fetch });
    legacy.use(apiTokenMiddleware(permanent));
    const { data, response } = await legacy.GET("/voice/api/v1/admin/token");
    expect(response.status).toBe(200);
    expect(data).toEqual([permanent]);
  });
});

describe("auth.client()", () => {
  it("is the manager's one client without options, and a new one with them", () => {
    const s = setup();
    const kept = s.auth.client();
    expect(s.auth.client()).toBe(kept);
    const own = s.auth.client({ timeoutMs: 1_000 });
    expect(own).not.toBe(kept);
    expect(s.auth.client({ timeoutMs: 1_000 })).not.toBe(own);
  });
});
