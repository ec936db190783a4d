// Answers a hostile or broken server may give, over real sockets on 127.0.0.1 where the transport
// matters (deadlines, sizes), through the fake server where only the content does.
import {
  drip,
  type HostAnswer,
  neverAnswer,
  startLoopbackHost,
  stoppedAfterEach,
  underGarbageCollection,
} from "@engage-voice/test-kit";
import { describe, expect, it } from "vitest";
import {
  apiTokenMiddleware,
  apiTokens,
  createTokenManager,
  EngageVoiceAuthError,
  memoryStore,
} from "../src/index.js";
import { fromStored, toTokenSet } from "../src/tokens.js";
import { BASE, LEGACY_BASE, setup } from "./fake-server.js";

const open = stoppedAfterEach(startLoopbackHost);
/** A host on 127.0.0.1 whose every answer `answer` writes; nothing ever ends unless it says so. */
const listen = async (answer: HostAnswer) => (await open(answer)).base;

describe("deadlines hold while the collector runs", () => {
  it("a token call whose body drips for ever times out", async () => {
    const base = await listen(drip({ everyMs: 100 }));
    const calls = Array.from({ length: 5 }, () =>
      createTokenManager({ baseUrl: base, rcAccessToken: "rc", timeoutMs: 500, retries: 0, logger: {} })
        .getAccessToken()
        .catch((error) => error),
    );
    const errors = await underGarbageCollection(Promise.all(calls));
    for (const error of errors) {
      expect(error).toMatchObject({ code: "network_error", timedOut: true });
    }
  });

  it("a token call that never gets headers times out", async () => {
    const base = await listen(neverAnswer);
    const auth = createTokenManager({
      baseUrl: base,
      rcAccessToken: "rc",
      timeoutMs: 500,
      retries: 0,
      logger: {},
    });
    const error = await underGarbageCollection(auth.getAccessToken().catch((e) => e));
    expect(error).toMatchObject({ code: "network_error", timedOut: true });
  });

  it("apiTokens().list() against a server that never answers, or drips, times out", async () => {
    for (const base of [await listen(neverAnswer), await listen(drip({ everyMs: 100 }))]) {
      const tokens = apiTokens({ baseUrl: base, auth: { accessToken: "a.b.c" }, timeoutMs: 500 });
      const error = await underGarbageCollection(tokens.list().catch((e) => e));
      expect(error).toMatchObject({ code: "network_error", timedOut: true });
    }
  });

  it("a 401 whose body never ends reaches the caller of the middleware and of fetch", async () => {
    const base = await listen((response, url) => {
      if (url.startsWith("/api/auth/login")) {
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ accessToken: "opaque-access", refreshToken: "opaque-refresh" }));
        return;
      }
      response.writeHead(401, { "Content-Type": "text/plain" });
      response.write("Jwt");
    });
    // The deadline now covers the whole call (the exchange, the answer, the 401's bounded read) while
    // the collector runs on a busy machine: it is only the guard that a read without a bound would hit.
    const auth = createTokenManager({ baseUrl: base, rcAccessToken: "rc", timeoutMs: 20_000, logger: {} });
    const viaFetch = await underGarbageCollection(auth.fetch(`${base}/voice/api/v1/admin/accounts`));
    expect(viaFetch.status).toBe(401);
    await viaFetch.body?.cancel();
    // The middleware's own part: it hands the answer on (openapi-fetch itself then reads error bodies).
    const { onRequest, onResponse } = auth.middleware as Required<typeof auth.middleware>;
    const params = { schemaPath: "", params: {}, id: "1", options: { baseUrl: base, fetch } } as never;
    const request = (await onRequest({
      ...(params as object),
      request: new Request(`${base}/voice/api/v1/admin/accounts`),
    } as never)) as Request;
    const response = await fetch(request);
    const after = await underGarbageCollection(
      Promise.resolve(onResponse({ ...(params as object), request, response } as never)),
    );
    expect(after).toBeUndefined();
    await response.body?.cancel();
  });
});

describe("sizes", () => {
  it("a token answer past 256 kB fails as response_too_large and nothing of it is kept", async () => {
    const junk = JSON.stringify({ accessToken: "a.b.c", refreshToken: "r", pad: "x".repeat(1_000_000) });
    const store = memoryStore();
    const base = await listen((response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(junk);
    });
    const auth = createTokenManager({
      baseUrl: base,
      rcAccessToken: "rc",
      tenant: "acme",
      store,
      logger: {},
    });
    await expect(auth.getAccessToken()).rejects.toMatchObject({ code: "response_too_large" });
    expect(await store.get()).toBeUndefined();
  });

  it("an endless token answer without a length fails as response_too_large", async () => {
    const chunk = "x".repeat(64 * 1024);
    const base = await listen((response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      const pump = () => {
        while (response.write(chunk)) {}
      };
      response.on("drain", pump);
      pump();
    });
    const auth = createTokenManager({ baseUrl: base, rcAccessToken: "rc", logger: {} });
    const error = await auth.getAccessToken().catch((e) => e);
    expect(error).toMatchObject({ code: "response_too_large" });
    expect(error.message).toMatch(/The token exchange answered more than 262144 bytes/);
  });
});

describe("malformed token answers", () => {
  it.each([{}, [], 42, "", "has space"])(
    "a refresh answer whose refreshToken is %j fails as unexpected_response, then the session recovers",
    async (refreshToken) => {
      const s = setup();
      await s.auth.getAccessToken();
      const answer = { accessToken: "a.b.c", refreshToken };
      s.server.fail("refresh", {
        status: 200,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(answer),
      });
      const error = await s.auth.refresh().catch((e) => e);
      if (typeof refreshToken === "string" && refreshToken !== "") {
        // A refresh token travels in a form body: a space is allowed there.
        expect(error).not.toBeInstanceOf(Error);
        return;
      }
      expect(error).toMatchObject({ code: "unexpected_response", status: 200 });
      expect(error.message).toMatch(/malformed token response \(refreshToken is not a string\)/);
      // Not taken for a transient failure: the next renewal makes a token call again.
      const before = s.server.totalTokenCalls();
      await s.auth.refresh();
      expect(s.server.totalTokenCalls()).toBeGreaterThan(before);
    },
  );

  it.each(["token\nX-Injected: 1", "token\r\nX: 1", "two words", ""])(
    "an accessToken %j in an answer is refused without being quoted",
    async (accessToken) => {
      const s = setup();
      s.server.fail("exchange", {
        status: 200,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ accessToken, refreshToken: "r" }),
      });
      const error = await s.auth.getAccessToken().catch((e) => e);
      expect(error).toBeInstanceOf(EngageVoiceAuthError);
      expect(error.code).toBe("unexpected_response");
      if (accessToken) {
        expect(error.message).not.toContain(accessToken);
      }
    },
  );

  it("a __proto__ key in an answer or a stored set does not undo the redaction", () => {
    const parsed = JSON.parse(
      '{"accessToken":"secret-access","refreshToken":"secret-refresh","__proto__":{"toJSON":null}}',
    );
    const fromAnswer = toTokenSet(parsed, 1, null);
    const stored = fromStored({ ...JSON.parse('{"__proto__":{}}'), ...fromAnswer });
    for (const set of [fromAnswer, stored]) {
      expect(set?.accessToken).toBe("secret-access");
      expect(JSON.stringify(set)).not.toContain("secret-");
      expect(String(set)).not.toContain("secret-");
    }
  });

  it("session() tolerates agentDetails that are not an array of objects", async () => {
    for (const agentDetails of [{}, "x", [null, 7, "a", { accountId: 5 }, { accountId: "12" }]]) {
      const s = setup();
      s.server.fail("exchange", {
        status: 200,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ accessToken: "a.b.c", refreshToken: "r", agentDetails }),
      });
      await s.auth.getAccessToken();
      const session = s.auth.session();
      expect(Array.isArray(session?.agentDetails)).toBe(true);
      expect(session?.accountIds).toEqual(Array.isArray(agentDetails) ? ["12"] : []);
    }
  });
});

describe("what an error may quote", () => {
  it("never an errorCode that carries a credential of the call, nor one that is not a dotted code", async () => {
    const s = setup({ exchangesPerMinute: 100 });
    const parent = s.server.parentToken;
    for (const errorCode of [
      parent,
      `x.${parent}`,
      "eyJhbGciOi.eyJzdWIi.sig",
      "Bearer abc",
      "a".repeat(90),
    ]) {
      s.server.fail("exchange", {
        status: 401,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ errorCode, generalMessage: "no" }),
      });
      const error = await s.auth.getAccessToken().catch((e) => e);
      expect(error.code).toBe("exchange_rejected");
      expect(error.message).not.toContain(errorCode);
      expect(error.message).not.toContain(parent);
    }
    s.server.fail("exchange", {
      status: 401,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ errorCode: "access.denied.exception", generalMessage: "no" }),
    });
    await expect(s.auth.getAccessToken()).rejects.toThrow(/\(access\.denied\.exception\)/);
  });

  it("a refresh token echoed as the errorCode of a refusal stays out of the message and the log", async () => {
    const s = setup();
    const echo = async (request: Request) => {
      if (!request.url.endsWith("/api/auth/token/refresh")) {
        return s.server.fetch(request);
      }
      const sent = new URLSearchParams(await request.text()).get("refresh_token") ?? "";
      return Response.json({ errorCode: sent, generalMessage: sent }, { status: 401 });
    };
    const auth = createTokenManager({
      baseUrl: BASE,
      rcAccessToken: s.server.parentToken,
      fetch: echo,
      clock: s.clock,
      logger: { warn: (line) => s.logs.push(line), error: (line) => s.logs.push(line) },
    });
    const first = await auth.refresh();
    const spent = first.refreshToken as string;
    await auth.refresh(); // refused, then one new exchange
    expect(s.logs.some((line) => line.includes("refused with 401"))).toBe(true);
    for (const line of s.logs) {
      expect(line).not.toContain(spent);
    }
  });
});

describe("logout", () => {
  it("wraps a custom store's clear() failure as store_failed without its message", async () => {
    const s = setup({
      store: {
        ...memoryStore(),
        clear: async () => {
          throw new Error("could not delete refresh-token-in-message");
        },
      },
    });
    await s.auth.getAccessToken();
    const error = await s.auth.logout().catch((e) => e);
    expect(error).toMatchObject({ code: "store_failed" });
    expect(`${error.message} ${String(error.cause)}`).not.toContain("refresh-token-in-message");
    expect(s.auth.session()).toBeUndefined();
  });
});

describe("permanent tokens are checked before anything is sent", () => {
  it.each(["..", ".", "", "aws80:abc/../x", "aws80:abc?x=1", "a b:c", "aws80:c\n"])(
    "delete(%j) is refused",
    async (token) => {
      const s = setup();
      const tokens = apiTokens({
        baseUrl: LEGACY_BASE,
        auth: { accessToken: "a.b.c" },
        fetch: s.server.fetch,
      });
      await expect(tokens.delete(token)).rejects.toMatchObject({ code: "invalid_options" });
      expect(s.server.requests).toHaveLength(0);
    },
  );

  it("tokens with line breaks are refused up front, unquoted", () => {
    for (const make of [
      () => apiTokens({ baseUrl: LEGACY_BASE, auth: { apiToken: "aws80:x\r\nX-Evil: 1" } }),
      () => apiTokens({ baseUrl: LEGACY_BASE, auth: { accessToken: "abc\n" } }),
      () => createTokenManager({ baseUrl: BASE, rcAccessToken: "rc\nx" }),
      () => apiTokenMiddleware("aws80:x\r\nX-Evil: 1"),
    ]) {
      const error = (() => {
        try {
          make();
        } catch (e) {
          return e as EngageVoiceAuthError;
        }
        return undefined;
      })();
      expect(error?.code).toBe("invalid_options");
      expect(error?.message).not.toMatch(/X-Evil|abc|rc\n/);
    }
  });
});
