import { createClient } from "@engage-voice/client";
import { describe, expect, it } from "vitest";
import { EngageVoiceAuthError, OriginMismatchError } from "../src/index.js";
import { BASE, setup } from "./fake-server.js";

const ACCOUNTS = `${BASE}/voice/api/v1/admin/accounts`;
const expired = { status: 401, body: "Jwt is expired", headers: { "Content-Type": "text/plain" } };

function clientFor(s: ReturnType<typeof setup>) {
  const client = createClient({ baseUrl: BASE, fetch: s.server.fetch });
  client.use(s.auth.middleware);
  return client;
}

describe("401 Jwt is expired", () => {
  it("middleware: one shared refresh, each request replayed once", async () => {
    const s = setup();
    const client = clientFor(s);
    await client.GET("/voice/api/v1/admin/accounts");
    s.server.expireAccessTokens(); // the server says expired although the local clock says valid
    const results = await Promise.all(
      Array.from({ length: 100 }, () => client.GET("/voice/api/v1/admin/accounts")),
    );
    expect(results.every((r) => r.response.status === 200 && Array.isArray(r.data))).toBe(true);
    expect(s.server.calls.refresh).toBe(1);
    expect(s.server.calls.accounts).toBe(1 + 200);
  });

  it("fetch: one shared refresh, each request replayed once with its body", async () => {
    const s = setup();
    await s.auth.getAccessToken();
    s.server.expireAccessTokens();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => s.auth.fetch(ACCOUNTS, { method: "POST", body: `payload ${i}` })),
    );
    expect(await Promise.all(responses.map((r) => r.text()))).toEqual(
      Array.from({ length: 50 }, (_, i) => `payload ${i}`),
    );
    expect(s.server.calls.refresh).toBe(1);
    expect(s.server.calls.accounts).toBe(100);
  });

  it("fetch as the client's fetch: one shared refresh, each request replayed once", async () => {
    const s = setup();
    const client = createClient({ baseUrl: BASE, fetch: s.auth.fetch });
    await client.GET("/voice/api/v1/admin/accounts");
    s.server.expireAccessTokens();
    const results = await Promise.all(
      Array.from({ length: 100 }, () => client.GET("/voice/api/v1/admin/accounts")),
    );
    expect(results.every((r) => r.response.status === 200 && Array.isArray(r.data))).toBe(true);
    expect(s.server.calls.refresh).toBe(1);
    expect(s.server.calls.accounts).toBe(1 + 200);
  });

  it("middleware: a second 401 goes to the caller, never a loop", async () => {
    const s = setup();
    const client = clientFor(s);
    s.server.fail("accounts", expired, expired, expired);
    const { response, error } = await client.GET("/voice/api/v1/admin/accounts");
    expect(response.status).toBe(401);
    expect(error).toBe("Jwt is expired");
    expect(s.server.calls.accounts).toBe(2);
    expect(s.server.calls.refresh).toBe(1);
  });

  it("fetch: a second 401 goes to the caller, never a loop", async () => {
    const s = setup();
    s.server.fail("accounts", expired, expired, expired);
    const response = await s.auth.fetch(ACCOUNTS);
    expect(response.status).toBe(401);
    expect(await response.text()).toBe("Jwt is expired");
    expect(s.server.calls.accounts).toBe(2);
    expect(s.server.calls.refresh).toBe(1);
  });

  it("other 401s are not retried", async () => {
    const s = setup();
    const client = clientFor(s);
    s.server.fail("accounts", {
      status: 401,
      body: JSON.stringify({ errorCode: "access.denied.exception", generalMessage: "no" }),
    });
    const { response } = await client.GET("/voice/api/v1/admin/accounts");
    expect(response.status).toBe(401);
    expect(s.server.calls.accounts).toBe(1);
    expect(s.server.calls.refresh).toBe(0);
  });

  it("a late 401 for a token already replaced replays with the new one, without another refresh", async () => {
    const s = setup();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Holds the answer to requests marked X-Hold until released: they arrive after the renewal.
    const holding = async (request: Request) => {
      const response = await s.server.fetch(request);
      if (request.headers.has("X-Hold")) {
        await held;
      }
      return response;
    };
    const client = createClient({ baseUrl: BASE, fetch: holding });
    client.use(s.auth.middleware);
    await client.GET("/voice/api/v1/admin/accounts");
    s.server.expireAccessTokens();
    const late = client.GET("/voice/api/v1/admin/accounts", { headers: { "X-Hold": "1" } });
    const prompt = await client.GET("/voice/api/v1/admin/accounts");
    expect(prompt.response.status).toBe(200);
    expect(s.server.calls.refresh).toBe(1);
    release();
    expect((await late).response.status).toBe(200);
    expect(s.server.calls.refresh).toBe(1);
  });

  it("a stream body is not replayed, and the error says why", async () => {
    const s = setup();
    await s.auth.getAccessToken();
    s.server.expireAccessTokens();
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("streamed"));
        controller.close();
      },
    });
    const error = await s.auth
      .fetch(ACCOUNTS, { method: "POST", body, duplex: "half" } as RequestInit)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngageVoiceAuthError);
    expect((error as EngageVoiceAuthError).code).toBe("request_not_replayable");
    expect((error as EngageVoiceAuthError).status).toBe(401);
    expect((error as Error).message).toMatch(/stream/);
    expect(s.server.calls.accounts).toBe(1);
    // The token is renewed all the same, so sending again works.
    expect(s.server.calls.refresh).toBe(1);
    expect((await s.auth.fetch(ACCOUNTS)).status).toBe(200);
  });

  it("sends the bearer token and drops X-Auth-Token", async () => {
    const s = setup();
    const client = clientFor(s);
    await client.GET("/voice/api/v1/admin/accounts", { headers: { "X-Auth-Token": "aws80:other" } });
    const sent = s.server.requests.at(-1) as Request;
    expect(sent.headers.get("Authorization")).toMatch(/^Bearer ey/);
    expect(sent.headers.has("X-Auth-Token")).toBe(false);
  });

  it("fetch leaves requests to other origins alone; the middleware refuses a client of another origin", async () => {
    const s = setup();
    const other = createClient({ baseUrl: "https://other.example.test", fetch: s.server.fetch });
    other.use(s.auth.middleware);
    const error = await other.GET("/voice/api/v1/admin/accounts").catch((e) => e);
    expect(error).toBeInstanceOf(OriginMismatchError);
    expect(error.code).toBe("origin_mismatch");
    expect(error.message).toContain("https://other.example.test");
    expect(error.message).toContain(BASE);
    expect(s.server.requests).toHaveLength(0); // failed before anything was sent
    await s.auth.fetch("https://other.example.test/voice/api/v1/admin/accounts");
    await s.auth.fetch("http://engage.example.test/voice/api/v1/admin/accounts");
    expect(s.server.requests.every((r) => !r.headers.has("Authorization"))).toBe(true);
    expect(s.server.totalTokenCalls()).toBe(0);
  });

  it("passes failures of the renewal to the caller as typed errors", async () => {
    const s = setup({ rcAccessToken: "rc-unknown" });
    const client = clientFor(s);
    await expect(client.GET("/voice/api/v1/admin/accounts")).rejects.toMatchObject({
      code: "exchange_rejected",
    });
    expect(s.server.calls.accounts).toBe(0);
  });
});
