// The state table of the specification: exchange, expiry, refresh rotation and family revocation,
// and the exchange rate limit, on an injected clock.
import { describe, expect, it } from "vitest";
import { decodeClaims } from "../src/app.js";
import {
  bearer,
  call,
  exchange,
  expectApiError,
  expectConforms,
  expectJwtExpired,
  form,
  manualClock,
  open,
  refresh,
} from "./helpers.js";

const accounts = "/voice/api/v1/admin/accounts";
const FORM = "application/x-www-form-urlencoded";
const ADA = "rcAccessToken=sandbox-rc-token-ada&rcTokenType=Bearer";

describe("exchange", () => {
  it("answers a token response with a refresh token when includeRefresh=true", async () => {
    const clock = manualClock();
    const { mainUrl } = await open({ now: clock.now });
    const answer = await exchange(mainUrl);
    expect(answer.status).toBe(200);
    expectConforms(answer);
    expect(answer.json.refreshToken).toEqual(expect.any(String));
    expect(answer.json.tokenType).toBe("Bearer");
    expect(answer.json.agentDetails[0]).toMatchObject({
      accountId: "99990001",
      username: "ada.example@example.com",
    });
    expect(answer.json.mainAccountId).toBe("99990000");
    expect(new Date(answer.headers.get("date") as string).getTime()).toBe(clock.now());
  });

  it("answers no refresh token without includeRefresh or with includeRefresh=false", async () => {
    const { mainUrl } = await open();
    const without = await exchange(mainUrl, "sandbox-rc-token-ada", false);
    expectConforms(without);
    expect(without.json).not.toHaveProperty("refreshToken");
    const withFalse = await call(
      mainUrl,
      "/api/auth/login/rc/accesstoken?includeRefresh=false",
      form({ rcAccessToken: "sandbox-rc-token-ada", rcTokenType: "Bearer" }),
    );
    expect(withFalse.status).toBe(200);
    expect(withFalse.json).not.toHaveProperty("refreshToken");
  });

  it("signs an access token with sub, accountId, iat and exp of the configured lifetime", async () => {
    const clock = manualClock(Date.UTC(2030, 0, 1, 12, 0, 0, 250));
    const { mainUrl } = await open({ now: clock.now, tokenLifetimeMs: 120_000 });
    const { json } = await exchange(mainUrl);
    const claims = decodeClaims(json.accessToken);
    expect(claims).toMatchObject({ sub: "1001", accountId: "99990001" });
    expect(claims?.iat).toBe(Math.floor(clock.now() / 1000));
    expect(claims?.exp).toBe(Math.floor((clock.now() + 120_000) / 1000));
  });

  it("maps each parent token to its user", async () => {
    const { mainUrl } = await open();
    const rob = await exchange(mainUrl, "sandbox-rc-token-rob");
    expect(rob.json.agentDetails[0]).toMatchObject({
      username: "rob.agent@example.com",
      accountId: "99990002",
    });
    expect(decodeClaims(rob.json.accessToken)?.sub).toBe("1004");
  });

  it.each([
    ["an unknown parent token", "not-a-seeded-token"],
    ["a name of Object.prototype", "constructor"],
  ])("answers 401 ApiError for %s", async (_, token) => {
    const { mainUrl } = await open();
    const answer = await exchange(mainUrl, token);
    expectApiError(answer, 401, /RingCentral access token is invalid/);
    expectConforms(answer);
  });

  it.each([
    ["a missing rcAccessToken", "rcTokenType=Bearer", /Form field rcAccessToken is required/],
    ["a missing rcTokenType", "rcAccessToken=sandbox-rc-token-ada", /Form field rcTokenType is required/],
    ["an empty rcAccessToken", "rcAccessToken=&rcTokenType=Bearer", /rcAccessToken must not be empty/],
    ["an rcTokenType other than Bearer", "rcAccessToken=x&rcTokenType=Basic", /rcTokenType must be Bearer/],
    ["a field sent twice", "rcAccessToken=a&rcAccessToken=b&rcTokenType=Bearer", /must be sent once/],
    ["an unknown field", "rcAccessToken=a&rcTokenType=Bearer&scope=all", /Form field scope is not allowed/],
  ])("answers 400 ApiError for %s", async (_, body, message) => {
    const { mainUrl } = await open();
    const answer = await call(mainUrl, "/api/auth/login/rc/accesstoken", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    expectApiError(answer, 400, message);
    expectConforms(answer);
  });

  it.each([
    ["JSON", "application/json", JSON.stringify({ rcAccessToken: "x", rcTokenType: "Bearer" })],
    ["multipart", "multipart/form-data; boundary=x", "--x--"],
    ["text", "text/plain", "rcAccessToken=x&rcTokenType=Bearer"],
  ])("answers 400 ApiError for a %s body", async (_, contentType, body) => {
    const { mainUrl } = await open();
    const answer = await call(mainUrl, "/api/auth/login/rc/accesstoken", {
      method: "POST",
      headers: { "Content-Type": contentType },
      body,
    });
    expectApiError(answer, 400, /must be form-encoded/);
  });

  it.each([
    [
      "raw bytes that are not UTF-8",
      FORM,
      new Uint8Array([0x72, 0x63, 0xff, 0xfe, 0x3d, 0x31]),
      /not valid UTF-8/,
    ],
    [
      "a percent-encoded byte that is not UTF-8",
      FORM,
      "rcAccessToken=%FF&rcTokenType=Bearer",
      /not valid UTF-8/,
    ],
    [
      "a cut UTF-8 sequence",
      FORM,
      "rcAccessToken=sandbox-rc-token-ada%C3&rcTokenType=Bearer",
      /not valid UTF-8/,
    ],
    [
      "a field name that is not UTF-8",
      FORM,
      "rcAccessToken=x&rcTokenType=Bearer&%C0%AF=1",
      /not valid UTF-8/,
    ],
    ["charset=latin1", `${FORM}; charset=latin1`, ADA, /must be UTF-8: send charset=utf-8/],
    ["charset=ISO-8859-1", `${FORM};charset="ISO-8859-1"`, ADA, /must be UTF-8/],
    [
      "a percent-encoded NUL",
      FORM,
      "rcAccessToken=sandbox-rc-token-ada%00&rcTokenType=Bearer",
      /rcAccessToken must not contain NUL/,
    ],
    [
      "a raw NUL",
      FORM,
      "rcAccessToken=sandbox\u0000&rcTokenType=Bearer",
      /rcAccessToken must not contain NUL/,
    ],
  ])(
    "answers 400 ApiError for %s, and does not count it against the exchange limit",
    async (_, type, body, message) => {
      const { mainUrl } = await open({ exchangeRateLimit: { limit: 1, windowMs: 60_000 } });
      for (let i = 0; i < 3; i++) {
        const answer = await call(mainUrl, "/api/auth/login/rc/accesstoken", {
          method: "POST",
          headers: { "Content-Type": type },
          body,
        });
        expectApiError(answer, 400, message);
        expectConforms(answer);
      }
      expect((await exchange(mainUrl)).status).toBe(200);
    },
  );

  it("decodes percent-encoded UTF-8 and takes charset=utf-8 in any spelling", async () => {
    const { mainUrl } = await open({ parentTokens: { "tökén €": 1001 } });
    for (const type of [FORM, `${FORM}; charset=UTF-8`, `${FORM};charset="utf8"`]) {
      const answer = await call(mainUrl, "/api/auth/login/rc/accesstoken", {
        method: "POST",
        headers: { "Content-Type": type },
        body: "rcAccessToken=t%C3%B6k%C3%A9n+%E2%82%AC&rcTokenType=Bearer",
      });
      expect(answer.status).toBe(200);
    }
  });

  it("answers 400 for a refresh token that is not UTF-8 once decoded", async () => {
    const { mainUrl } = await open();
    const answer = await call(mainUrl, "/api/auth/token/refresh", {
      method: "POST",
      headers: { "Content-Type": FORM },
      body: "refresh_token=%FE%FF&rcTokenType=Bearer",
    });
    expectApiError(answer, 400, /not valid UTF-8/);
  });

  it("answers 400 ApiError for an includeRefresh that is not a boolean", async () => {
    const { mainUrl } = await open();
    const answer = await call(
      mainUrl,
      "/api/auth/login/rc/accesstoken?includeRefresh=yes",
      form({ rcAccessToken: "sandbox-rc-token-ada", rcTokenType: "Bearer" }),
    );
    expectApiError(answer, 400, /includeRefresh must be true or false/);
  });

  it("never quotes the parent token back", async () => {
    const { mainUrl } = await open();
    const answer = await exchange(mainUrl, "secret-parent-token-value");
    expect(answer.body).not.toContain("secret-parent-token-value");
  });
});

describe("the exchange rate limit", () => {
  it("allows 5 exchanges a minute, then answers 429 with Retry-After until the window moves", async () => {
    const clock = manualClock();
    const { mainUrl } = await open({ now: clock.now });
    for (let i = 0; i < 5; i++) {
      expect((await exchange(mainUrl)).status).toBe(200);
      clock.advance(10_000);
    }
    // The first exchange was 50 s ago: it leaves the window in 10 s.
    const limited = await exchange(mainUrl);
    expectApiError(limited, 429, /Too many token exchanges/);
    expectConforms(limited);
    expect(limited.headers.get("retry-after")).toBe("10");
    clock.advance(9_999);
    expect((await exchange(mainUrl)).status).toBe(429);
    clock.advance(1);
    expect((await exchange(mainUrl)).status).toBe(200);
  });

  it("counts rejected parent tokens but not malformed requests, in one window with exchangeRateLimitScope global", async () => {
    const clock = manualClock();
    const { mainUrl } = await open({
      now: clock.now,
      exchangeRateLimit: { limit: 2, windowMs: 60_000 },
      exchangeRateLimitScope: "global",
    });
    for (let i = 0; i < 3; i++) {
      const malformed = await call(
        mainUrl,
        "/api/auth/login/rc/accesstoken",
        form({ rcTokenType: "Bearer" }),
      );
      expect(malformed.status).toBe(400);
    }
    expect((await exchange(mainUrl, "unknown")).status).toBe(401);
    expect((await exchange(mainUrl)).status).toBe(200);
    expect((await exchange(mainUrl)).status).toBe(429);
  });

  it("by default, limits rejected parent tokens in a window of their own, which no tenant shares", async () => {
    const clock = manualClock();
    const { mainUrl } = await open({ now: clock.now, exchangeRateLimit: { limit: 2, windowMs: 60_000 } });
    expect((await exchange(mainUrl, "unknown")).status).toBe(401);
    expect((await exchange(mainUrl, "unknown-too")).status).toBe(401);
    expect((await exchange(mainUrl, "unknown")).status).toBe(429);
    expect((await exchange(mainUrl)).status).toBe(200);
    expect((await exchange(mainUrl)).status).toBe(200);
    expect((await exchange(mainUrl)).status).toBe(429);
  });
});

describe("access-token expiry", () => {
  it("accepts the token until exp, then answers 401 text/plain Jwt is expired", async () => {
    const clock = manualClock();
    const { mainUrl } = await open({ now: clock.now, tokenLifetimeMs: 2000 });
    const { json } = await exchange(mainUrl);
    expect((await call(mainUrl, accounts, bearer(json.accessToken))).status).toBe(200);
    clock.advance(1999);
    expect((await call(mainUrl, accounts, bearer(json.accessToken))).status).toBe(200);
    clock.advance(1);
    const expired = await call(mainUrl, accounts, bearer(json.accessToken));
    expectJwtExpired(expired);
    expectConforms(expired);
  });

  it("answers a JSON 401, not Jwt is expired, for a forged or foreign token even when its exp has passed", async () => {
    const clock = manualClock();
    const { mainUrl } = await open({ now: clock.now, tokenLifetimeMs: 1000 });
    const other = await open({ now: clock.now, tokenLifetimeMs: 1000 });
    const { json } = await exchange(mainUrl);
    const [header, payload] = json.accessToken.split(".");
    const forged = `${header}.${payload}.${"A".repeat(43)}`;
    const foreign = (await exchange(other.mainUrl)).json.accessToken;
    clock.advance(5000);
    for (const token of [forged, foreign, "not-a-jwt", "a.b.c"]) {
      const answer = await call(mainUrl, accounts, bearer(token));
      expectApiError(answer, 401, /access token is invalid/);
      expectConforms(answer);
    }
  });
});

describe("refresh", () => {
  it("rotates: a new access token and a new refresh token, and the one sent is spent", async () => {
    const clock = manualClock();
    const { mainUrl } = await open({ now: clock.now, tokenLifetimeMs: 2000 });
    const first = (await exchange(mainUrl)).json;
    clock.advance(3000);
    expectJwtExpired(await call(mainUrl, accounts, bearer(first.accessToken)));
    const second = await refresh(mainUrl, first.refreshToken);
    expect(second.status).toBe(200);
    expectConforms(second);
    expect(second.json.refreshToken).not.toBe(first.refreshToken);
    expect(second.json.accessToken).not.toBe(first.accessToken);
    expect((await call(mainUrl, accounts, bearer(second.json.accessToken))).status).toBe(200);
    // Many cycles: each token works exactly once.
    let current = second.json.refreshToken as string;
    for (let i = 0; i < 20; i++) {
      const next = await refresh(mainUrl, current);
      expect(next.status).toBe(200);
      current = next.json.refreshToken;
    }
    expect((await refresh(mainUrl, current)).status).toBe(200);
  });

  it("revokes the whole session when a spent refresh token is presented", async () => {
    const { mainUrl } = await open();
    const first = (await exchange(mainUrl)).json;
    const other = (await exchange(mainUrl)).json;
    const second = (await refresh(mainUrl, first.refreshToken)).json;
    const reuse = await refresh(mainUrl, first.refreshToken);
    expectApiError(reuse, 401, /already used, so its session is revoked/);
    expectConforms(reuse);
    // The newest token of that family is dead too; another session is untouched.
    expectApiError(await refresh(mainUrl, second.refreshToken), 401, /session was revoked/);
    expect((await refresh(mainUrl, other.refreshToken)).status).toBe(200);
    // Access tokens already issued stay valid until their exp (the sandbox's documented choice).
    expect((await call(mainUrl, accounts, bearer(second.accessToken))).status).toBe(200);
  });

  it("answers 401 ApiError for an unknown refresh token", async () => {
    const { mainUrl } = await open();
    const answer = await refresh(mainUrl, "00000000-0000-4000-8000-000000000000");
    expectApiError(answer, 401, /refresh token is invalid/);
    expectConforms(answer);
  });

  it.each([
    ["a missing refresh_token", { rcTokenType: "Bearer" }, /refresh_token is required/],
    ["a missing rcTokenType", { refresh_token: "x" }, /rcTokenType is required/],
    ["a wrong rcTokenType", { refresh_token: "x", rcTokenType: "bearer" }, /rcTokenType must be Bearer/],
  ])("answers 400 ApiError for %s", async (_, fields, message) => {
    const { mainUrl } = await open();
    const answer = await call(mainUrl, "/api/auth/token/refresh", form(fields as Record<string, string>));
    expectApiError(answer, 400, message);
    expectConforms(answer);
  });

  it("refreshes a session of the direct login too, on the contact-center host", async () => {
    const { mainUrl, legacyUrl } = await open();
    const query = "username=lee.legacy%40example.com&password=sandbox-password&platformId=sandbox-platform";
    const login = await call(legacyUrl, `/api/auth/login/admin?${query}`, { method: "POST" });
    const refreshed = await refresh(mainUrl, login.json.refreshToken);
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.agentDetails[0].username).toBe("lee.legacy@example.com");
  });
});
