import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient, createLegacyClient } from "@engage-voice/client";
import { afterEach, describe, expect, it } from "vitest";
import {
  apiTokenMiddleware,
  apiTokens,
  createTokenManager,
  EngageVoiceAuthError,
  legacyLogin,
  TransportRefusedError,
} from "../src/index.js";
import { BASE, LEGACY_BASE, LEGACY_USER, PARENT_TOKEN, setup } from "./fake-server.js";

const rc = { rcAccessToken: PARENT_TOKEN };

describe("transport policy", () => {
  it.each([
    "https://engage.ringcentral.com",
    "http://localhost:4010",
    "http://127.0.0.1:4010",
    "http://127.45.6.7",
    "http://[::1]:4010",
  ])("sends credentials to %s", (baseUrl) => {
    expect(() => createTokenManager({ baseUrl, ...rc })).not.toThrow();
    expect(() => apiTokens({ baseUrl, auth: { apiToken: "aws80:t" } })).not.toThrow();
  });

  it.each(["http://engage.ringcentral.com", "http://10.0.0.8", "http://localhost.example.com"])(
    "refuses %s",
    async (baseUrl) => {
      expect(() => createTokenManager({ baseUrl, ...rc })).toThrow(TransportRefusedError);
      expect(() => apiTokens({ baseUrl, auth: { apiToken: "aws80:t" } })).toThrow(TransportRefusedError);
      await expect(legacyLogin({ baseUrl, ...LEGACY_USER, logger: {} })).rejects.toMatchObject({
        code: "transport_refused",
      });
    },
  );

  it("allows plain http to other hosts only when asked explicitly", () => {
    const baseUrl = "http://engage.internal.test";
    expect(() => createTokenManager({ baseUrl, ...rc, allowInsecureHttp: true })).not.toThrow();
    expect(() => apiTokens({ baseUrl, auth: { accessToken: "t" }, allowInsecureHttp: true })).not.toThrow();
    // Not a transport at all: the client's origin rule refuses it as a bad option, whatever the flag.
    expect(() => createTokenManager({ baseUrl: "ftp://x.test", ...rc, allowInsecureHttp: true })).toThrow(
      /baseUrl must use https: or http:, not ftp:/,
    );
  });

  it("rejects base URLs that are not URLs or carry credentials", () => {
    for (const baseUrl of [
      "not a url",
      "/relative",
      "https://user:pw@engage.ringcentral.com",
      "ftp://localhost",
    ]) {
      expect(() => createTokenManager({ baseUrl, ...rc })).toThrow(EngageVoiceAuthError);
    }
    expect(() => createTokenManager({ baseUrl: "nope", ...rc })).toThrow(/absolute URL/);
  });

  it("never sends the bearer token to another origin", async () => {
    const s = setup();
    await s.auth.fetch("https://elsewhere.example.test/voice/api/v1/admin/accounts");
    await s.auth.fetch("https://engage.example.test:8443/voice/api/v1/admin/accounts");
    const other = createClient({ baseUrl: "https://elsewhere.example.test", fetch: s.server.fetch });
    other.use(s.auth.middleware);
    await expect(other.GET("/voice/api/v1/admin/accounts")).rejects.toMatchObject({
      code: "origin_mismatch",
    });
    expect(s.server.requests).toHaveLength(2);
    expect(s.server.requests.some((r) => r.headers.has("Authorization"))).toBe(false);
    await s.auth.fetch(`${BASE}/voice/api/v1/admin/accounts`);
    expect(s.server.requests.at(-1)?.headers.has("Authorization")).toBe(true);
  });

  it("apiTokenMiddleware: sends X-Auth-Token to its origin only, never with Authorization", async () => {
    const s = setup();
    const legacy = createLegacyClient({ baseUrl: LEGACY_BASE, fetch: s.server.fetch });
    const permanent = await s.server.addApiToken();
    legacy.use(apiTokenMiddleware(permanent, { baseUrl: LEGACY_BASE }));
    const listed = await legacy.GET("/voice/api/v1/admin/token", {
      headers: { Authorization: "Bearer stray" },
    });
    expect(listed.data).toEqual([permanent]);
    const sent = s.server.requests.at(-1) as Request;
    expect(sent.headers.get("X-Auth-Token")).toBe(permanent);
    expect(sent.headers.has("Authorization")).toBe(false);
    expect(sent.redirect).toBe("manual");
    // Not even when one request names another base URL.
    await legacy.GET("/voice/api/v1/admin/token", { baseUrl: "https://elsewhere.example.test" });
    expect(s.server.requests.at(-1)?.headers.has("X-Auth-Token")).toBe(false);
  });

  it("apiTokenMiddleware: without a baseUrl, follows the client it is used on and checks its transport", async () => {
    const s = setup();
    const onDefault = createLegacyClient({ fetch: s.server.fetch });
    const elsewhere = createLegacyClient({ baseUrl: LEGACY_BASE, fetch: s.server.fetch });
    for (const client of [onDefault, elsewhere]) {
      client.use(apiTokenMiddleware("aws80:permanent"));
      await client.GET("/voice/api/v1/admin/token");
    }
    expect(s.server.requests.map((r) => r.headers.get("X-Auth-Token"))).toEqual([
      "aws80:permanent",
      "aws80:permanent",
    ]);
    const plain = createLegacyClient({ baseUrl: "http://portal.example.test", fetch: s.server.fetch });
    plain.use(apiTokenMiddleware("aws80:permanent"));
    await expect(plain.GET("/voice/api/v1/admin/token")).rejects.toBeInstanceOf(TransportRefusedError);
    expect(s.server.requests).toHaveLength(2);
    expect(() => apiTokenMiddleware("aws80:permanent", { baseUrl: "http://portal.example.test" })).toThrow(
      TransportRefusedError,
    );
    expect(() => apiTokenMiddleware("")).toThrow(/apiToken/);
  });

  it("manager and permanent-token middleware on one client: only one credential header goes out", async () => {
    const s = setup();
    const client = createClient({ baseUrl: BASE, fetch: s.server.fetch });
    client.use(apiTokenMiddleware("aws80:permanent", { baseUrl: BASE }), s.auth.middleware);
    await client.GET("/voice/api/v1/admin/accounts");
    const sent = s.server.requests.at(-1) as Request;
    expect(sent.headers.has("Authorization")).toBe(true);
    expect(sent.headers.has("X-Auth-Token")).toBe(false);
  });
});

describe("redirects over real sockets on 127.0.0.1", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  async function listen(handler: (headers: IncomingHttpHeaders) => [number, Record<string, string>, string]) {
    const server = createServer((request, response) => {
      const [status, headers, body] = handler(request.headers);
      response.writeHead(status, headers).end(body);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("a redirect to another origin does not carry the bearer token there", async () => {
    const received: IncomingHttpHeaders[] = [];
    const target = await listen((headers) => {
      received.push(headers);
      return [200, { "Content-Type": "application/json" }, "[]"];
    });
    const jwt = `e30.${btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 300 }))}.sig`;
    const origin = await listen((headers) =>
      headers["content-type"] === "application/x-www-form-urlencoded"
        ? [
            200,
            { "Content-Type": "application/json" },
            JSON.stringify({ accessToken: jwt, tokenType: "Bearer" }),
          ]
        : [307, { Location: `${target}/voice/api/v1/admin/accounts` }, ""],
    );
    // A fetch that follows redirects itself and keeps every header, as some polyfills and wrappers do,
    // unless the request asks it not to follow.
    const keepsHeaders = async (request: Request): Promise<Response> => {
      const response = await fetch(request.clone(), { redirect: "manual" });
      const location = response.headers.get("Location");
      if (request.redirect === "manual" || !location || response.status < 300 || response.status > 399) {
        return response;
      }
      return keepsHeaders(new Request(location, { headers: request.headers, redirect: request.redirect }));
    };
    const auth = createTokenManager({
      baseUrl: origin,
      rcAccessToken: PARENT_TOKEN,
      fetch: keepsHeaders,
    });
    const viaMiddleware = createClient({ baseUrl: origin, fetch: keepsHeaders });
    viaMiddleware.use(auth.middleware);
    // Credentialed requests are never followed: the redirect comes back to the caller as it is.
    for (const call of [
      () => viaMiddleware.GET("/voice/api/v1/admin/accounts").then((r) => r.response),
      () =>
        auth
          .client()
          .GET("/voice/api/v1/admin/accounts")
          .then((r) => r.response),
      () => auth.fetch(`${origin}/voice/api/v1/admin/accounts`),
      () => auth.fetch(new Request(`${origin}/voice/api/v1/admin/accounts`, { redirect: "follow" })),
    ]) {
      const response = await call();
      expect(response.status).toBe(307);
    }
    expect(received).toHaveLength(0);
    // The same fetch, asked to follow, would have carried the token: the test can fail.
    await keepsHeaders(new Request(`${origin}/x`, { headers: { Authorization: "Bearer probe" } }));
    expect(received[0]?.authorization).toBe("Bearer probe");
  });

  it("a redirect to another origin does not carry X-Auth-Token there", async () => {
    const received: IncomingHttpHeaders[] = [];
    const target = await listen((headers) => {
      received.push(headers);
      return [200, { "Content-Type": "application/json" }, "[]"];
    });
    const origin = await listen(() => [307, { Location: `${target}/voice/api/v1/admin/token` }, ""]);
    const legacy = createLegacyClient({ baseUrl: origin });
    legacy.use(apiTokenMiddleware("aws80:permanent", { baseUrl: origin }));
    const { response } = await legacy.GET("/voice/api/v1/admin/token");
    expect(response.status).toBe(307);
    expect(received.every((h) => h["x-auth-token"] === undefined)).toBe(true);
  });
});
