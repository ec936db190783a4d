// What every API call gets beside its token: the caller's abort ends its own waits (the shared renewal
// goes on for the others), a 401 goes back as fetch gives it whatever its body does, and refusals name
// the fix. Waits and renewals run on the fake clock; the dripping bodies are real sockets on 127.0.0.1.
import { createClient, type MainPaths, type Middleware } from "@engage-voice/client";
import { drip, neverAnswer, startLoopbackHost, stoppedAfterEach } from "@engage-voice/test-kit";
import createOpenApiClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import { expiredBodyRead } from "../src/authoriser.js";
import { createTokenManager, type EngageVoiceAuthError, type TokenManager } from "../src/index.js";
import { BASE, fakeClock, fakeServer, hostsFor, setup } from "./fake-server.js";

const ACCOUNTS = "/voice/api/v1/admin/accounts";
const EXCHANGE = "/api/auth/login/rc/accesstoken";

/** The fake server behind a gate on the exchange: it answers once the test lets it. */
function gatedExchange() {
  const { server, managerOn } = hostsFor();
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let arrived = () => {};
  const exchangeArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const fetch = async (request: Request) => {
    if (new URL(request.url).pathname === EXCHANGE) {
      arrived();
      await gate;
    }
    return server.fetch(request);
  };
  const { auth } = managerOn(undefined, { fetch, sleep: undefined, random: undefined });
  return { auth, server, open, exchangeArrived };
}

describe("a request's signal", () => {
  it.each([
    [
      "auth.client()",
      (auth: ReturnType<typeof gatedExchange>["auth"], signal: AbortSignal) =>
        auth.client().GET(ACCOUNTS, { signal }),
    ],
    [
      "auth.fetch",
      (auth: ReturnType<typeof gatedExchange>["auth"], signal: AbortSignal) =>
        auth.fetch(`${BASE}${ACCOUNTS}`, { signal }),
    ],
    [
      "the middleware on a plain openapi-fetch client",
      (auth: ReturnType<typeof gatedExchange>["auth"], signal: AbortSignal) => {
        const client = createOpenApiClient<MainPaths>({ baseUrl: BASE });
        client.use(auth.middleware);
        return client.GET(ACCOUNTS, { signal });
      },
    ],
    [
      "the middleware",
      (auth: ReturnType<typeof gatedExchange>["auth"], signal: AbortSignal) => {
        const client = createClient({ baseUrl: BASE });
        client.use(auth.middleware);
        return client.GET(ACCOUNTS, { signal });
      },
    ],
  ])(
    "ends its wait for the first token at once through %s; the renewal goes on for the others",
    async (_, call) => {
      const { auth, server, open, exchangeArrived } = gatedExchange();
      const controller = new AbortController();
      const mine = call(auth, controller.signal);
      const other = auth.client().GET(ACCOUNTS);
      await exchangeArrived;
      controller.abort();
      // The exchange is still held: only the abort can have ended this call.
      await expect(mine).rejects.toMatchObject({ name: "AbortError" });
      open();
      const { response } = await other;
      expect(response.status).toBe(200);
      expect(server.calls.exchange).toBe(1);
    },
  );
});

/** The body's first bytes, up to "Jwt is", then the rest is let go. */
async function firstText(response: Response): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (text.length < "Jwt is".length) {
    const { value, done } = await reader.read();
    if (done) {
      break;
    }
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
  return text.slice(0, "Jwt is".length);
}

describe("a 401 goes back as fetch gives it", () => {
  const open = stoppedAfterEach(startLoopbackHost);
  /** A host whose every answer is 401 "Jwt is", then a space every 50 ms, for ever. */
  const dripping401 = async () =>
    (await open(drip({ status: 401, contentType: "text/plain", first: "Jwt is" }))).base;

  /** A manager of that host whose token calls the fake server answers; API calls go to the host. */
  function managerOf(base: string) {
    const fake = fakeServer({ clock: fakeClock() });
    const fetch = (request: Request, init?: RequestInit) => {
      const { pathname, search } = new URL(request.url);
      return pathname === EXCHANGE
        ? fake.fetch(new Request(`${BASE}${pathname}${search}`, request))
        : globalThis.fetch(request, init);
    };
    return createTokenManager({ baseUrl: base, rcAccessToken: fake.parentToken, fetch, logger: {} });
  }

  it("through auth.fetch, with its body intact, however long the body drips", async () => {
    const base = await dripping401();
    const response = await managerOf(base).fetch(`${base}${ACCOUNTS}`);
    expect(response.status).toBe(401);
    expect(await firstText(response)).toBe("Jwt is");
    // A hang guard ten times the bounded read: before the bound, the read took as long as the drip.
  }, 10_000);

  it("through the middleware: onResponse hands the 401 back untouched, its body intact", async () => {
    // openapi-fetch itself then reads an error body whole, under the client's deadline: the
    // middleware's part is to decide on a bounded read and not to hold the answer.
    const base = await dripping401();
    const auth = managerOf(base);
    const middleware = auth.middleware as Required<Middleware>;
    const options = { baseUrl: base, fetch: globalThis.fetch } as never;
    const request = (await middleware.onRequest({
      request: new Request(`${base}${ACCOUNTS}`),
      options,
    } as never)) as Request;
    const response = await fetch(request);
    const replaced = await middleware.onResponse({ request, response, options } as never);
    expect(replaced).toBeUndefined();
    expect(response.status).toBe(401);
    expect(await firstText(response)).toBe("Jwt is");
    // A hang guard ten times the bounded read: before the bound, the read took as long as the drip.
  }, 10_000);

  // A call given up on must not hold its connection until the host answers: the deadline reaches the
  // socket on every path. Where it did not, the test would wait for the close until its own timeout.
  it.each([
    ["auth.client()", (auth: TokenManager) => auth.client({ timeoutMs: 1_000 }).GET(ACCOUNTS)],
    [
      "auth.fetch",
      (auth: TokenManager, base: string) => auth.fetch(`${base}${ACCOUNTS}`, { timeoutMs: 1_000 }),
    ],
    [
      "a client with fetch: auth.fetch",
      (auth: TokenManager, base: string) =>
        createClient({ baseUrl: base, fetch: auth.fetch, timeoutMs: 1_000 }).GET(ACCOUNTS),
    ],
    [
      "a client with the middleware",
      (auth: TokenManager, base: string) => {
        const client = createClient({ baseUrl: base, timeoutMs: 1_000 });
        client.use(auth.middleware);
        return client.GET(ACCOUNTS);
      },
    ],
  ])("the deadline closes the connection: %s", async (_, call) => {
    const { base, firstConnectionClosed } = await open(neverAnswer);
    const auth = managerOf(base);
    // The token first: an exchange inside the call could use up its deadline on a busy machine before
    // the request reached the host, which would then have no connection to close (seen in CI).
    await auth.getAccessToken();
    await expect(call(auth, base)).rejects.toMatchObject({ name: "RequestTimeoutError" });
    await firstConnectionClosed;
  });

  it("reads at most a short prefix for a short time, named as data", () => {
    expect(expiredBodyRead.maxBytes).toBeLessThanOrEqual(1024);
    expect(expiredBodyRead.timeoutMs).toBeLessThanOrEqual(2_000);
  });
});

describe("refusals name the fix", () => {
  it("an expired or revoked parent token: obtain a new one", async () => {
    const s = setup({ rcAccessToken: "expired-parent-token" });
    const error = (await s.auth.getAccessToken().catch((e: unknown) => e)) as EngageVoiceAuthError;
    expect(error.code).toBe("exchange_rejected");
    expect(error.message).toMatch(/expired, revoked or not a RingCentral access token: obtain a new one/);
    expect(error.message).not.toContain("expired-parent-token");
  });

  it("a host without the exchange (the deprecated one, or a wrong one): use legacyLogin", async () => {
    const s = setup();
    s.server.fail("exchange", { status: 404 });
    const error = (await s.auth.getAccessToken().catch((e: unknown) => e)) as EngageVoiceAuthError;
    expect(error.code).toBe("unexpected_response");
    expect(error.message).toMatch(
      /answered 404: .* has no token exchange: .*legacyLogin\(\) and createLegacyClient\(\)/,
    );
  });

  it("a refused refresh token: says that a set without includeRefresh has none", async () => {
    const s = setup();
    await s.auth.getAccessToken();
    s.server.fail("refresh", {
      status: 401,
      body: '{"errorCode":"authentication.exception","generalMessage":"The refresh token is invalid"}',
    });
    await s.auth.refresh();
    expect(s.logs.join("\n")).toMatch(/without includeRefresh=true has none/);
  });

  it("baseURL in plain JavaScript: did you mean baseUrl", () => {
    expect(() => createTokenManager({ baseURL: "https://x.example", rcAccessToken: "rc" } as never)).toThrow(
      /has no option "baseURL": did you mean baseUrl\?/,
    );
  });
});
