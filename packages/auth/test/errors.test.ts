import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { isTransient } from "../src/errors.js";
import * as auth from "../src/index.js";
import { setup } from "./fake-server.js";

const {
  EngageVoiceAuthError,
  ExchangeRejectedError,
  LoginRejectedError,
  NetworkError,
  RateLimitedError,
  ReauthRequiredError,
  RefreshRejectedError,
  TransportRefusedError,
  UnexpectedResponseError,
} = auth;

describe("typed errors", () => {
  it("are exported for instanceof checks and carry a stable code and status", async () => {
    const cases: Array<[unknown, new (...args: never[]) => Error, string, number | undefined]> = [];
    const rejected = setup({ rcAccessToken: "rc-wrong" });
    cases.push([
      await rejected.auth.getAccessToken().catch((e) => e),
      ExchangeRejectedError,
      "exchange_rejected",
      401,
    ]);

    const reauth = setup();
    await reauth.auth.getAccessToken();
    reauth.server.revokeRefreshTokens();
    reauth.server.revokeParentTokens();
    const reauthError = await reauth.auth.refresh().catch((e) => e);
    cases.push([reauthError, ReauthRequiredError, "reauth_required", 401]);
    cases.push([reauthError.refreshError, RefreshRejectedError, "refresh_rejected", 401]);

    const limited = setup();
    limited.server.fail("exchange", { status: 429, headers: { "Retry-After": "5" } });
    cases.push([await limited.auth.getAccessToken().catch((e) => e), RateLimitedError, "rate_limited", 429]);

    const broken = setup({ retries: 0 });
    broken.server.fail("exchange", { status: 502 }, "network", { status: 302, headers: { Location: "/x" } });
    cases.push([
      await broken.auth.getAccessToken().catch((e) => e),
      UnexpectedResponseError,
      "unexpected_response",
      502,
    ]);
    cases.push([
      await broken.auth.getAccessToken().catch((e) => e),
      NetworkError,
      "network_error",
      undefined,
    ]);
    cases.push([
      await broken.auth.getAccessToken().catch((e) => e),
      UnexpectedResponseError,
      "unexpected_response",
      302,
    ]);

    const login = setup();
    cases.push([
      await auth
        .legacyLogin({ username: "u", password: "p", platformId: "x", fetch: login.server.fetch, logger: {} })
        .catch((e) => e),
      LoginRejectedError,
      "login_rejected",
      401,
    ]);
    cases.push([
      (() => {
        try {
          auth.createTokenManager({ baseUrl: "http://remote.test", rcAccessToken: "t" });
        } catch (e) {
          return e;
        }
      })(),
      TransportRefusedError,
      "transport_refused",
      undefined,
    ]);

    for (const [error, type, code, status] of cases) {
      expect(error).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(EngageVoiceAuthError);
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({ code, status, name: type.name });
      expect(JSON.parse(JSON.stringify(error))).toMatchObject({
        name: type.name,
        code,
        message: (error as Error).message,
      });
      expect(inspect(error)).toContain(code);
      expect((error as Error).stack).toContain(type.name);
    }
  });

  it("reduce foreign causes to their name and system code", () => {
    const cause = Object.assign(new TypeError("fetch failed for https://x.test/?password=p"), {
      cause: { code: "ECONNREFUSED" },
    });
    const error = new NetworkError("The token exchange", cause);
    expect(String(error.cause)).toBe("Error: TypeError (ECONNREFUSED)");
    expect(new NetworkError("x", "a string").cause).toBeInstanceOf(Error);
    expect(new NetworkError("x", null).cause).toBeInstanceOf(Error);
    expect(new NetworkError("x", new DOMException("t", "TimeoutError")).timedOut).toBe(true);
    expect(new EngageVoiceAuthError("store_failed", "m").cause).toBeUndefined();
  });

  it("tell transient failures from final ones", () => {
    expect(isTransient(new NetworkError("x", new Error("e")))).toBe(true);
    expect(isTransient(new UnexpectedResponseError("unexpected_response", "m", { status: 503 }))).toBe(true);
    expect(isTransient(new UnexpectedResponseError("unexpected_response", "m", { status: 408 }))).toBe(true);
    expect(isTransient(new UnexpectedResponseError("unexpected_response", "m", { status: 404 }))).toBe(false);
    expect(isTransient(new RateLimitedError(1, "m"))).toBe(false);
    expect(isTransient(new Error("x"))).toBe(false);
  });

  it("turn bad options into a clear error", () => {
    expect(() => auth.createTokenManager({ rcAccessToken: 42 as unknown as string })).toThrow(
      /rcAccessToken must be a non-empty string/,
    );
    for (const [name, value] of [
      ["retries", -1],
      ["timeoutMs", 0],
      ["timeoutMs", Number.POSITIVE_INFINITY],
      ["exchangesPerMinute", 1.5],
    ] as const) {
      expect(() => auth.createTokenManager({ rcAccessToken: "t", [name]: value })).toThrow(
        new RegExp(`^${name} must be an integer`),
      );
    }
  });

  it("reject what rcAccessToken() returns when it is not a token", async () => {
    const s = setup({ rcAccessToken: async () => "" });
    await expect(s.auth.getAccessToken()).rejects.toMatchObject({ code: "invalid_options" });
    expect(s.server.calls.exchange).toBe(0);
  });
});
