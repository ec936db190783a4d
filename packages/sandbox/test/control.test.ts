// Time and state control: in process and over HTTP (only when enabled), so a user's token-handling
// tests need no sleeps.
import { describe, expect, it } from "vitest";
import { CONTROL_PATH } from "../src/app.js";
import {
  bearer,
  call,
  exchange,
  expectApiError,
  expectJwtExpired,
  manualClock,
  open,
  refresh,
} from "./helpers.js";

const controlled = (extra = {}) => open({ tokenLifetimeMs: 60_000, control: { enabled: true }, ...extra });
const post = (body: unknown) => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

describe("time and state control", () => {
  it("advancing the clock expires tokens as time would", async () => {
    const sandbox = await controlled({ now: manualClock().now });
    const { accessToken } = (await exchange(sandbox.mainUrl)).json;
    expect((await call(sandbox.mainUrl, "/voice/api/v1/admin/accounts", bearer(accessToken))).status).toBe(
      200,
    );
    sandbox.control.advance(60_000);
    expectJwtExpired(await call(sandbox.mainUrl, "/voice/api/v1/admin/accounts", bearer(accessToken)));
  });

  it("expires every token now, while new ones work", async () => {
    const sandbox = await controlled();
    const { accessToken, refreshToken } = (await exchange(sandbox.mainUrl)).json;
    expect(sandbox.control.expireAccessTokens()).toBe(1);
    expectJwtExpired(await call(sandbox.mainUrl, "/voice/api/v1/admin/accounts", bearer(accessToken)));
    const renewed = (await refresh(sandbox.mainUrl, refreshToken)).json;
    expect(
      (await call(sandbox.mainUrl, "/voice/api/v1/admin/accounts", bearer(renewed.accessToken))).status,
    ).toBe(200);
  });

  it("revokes a session: its refresh tokens are refused", async () => {
    const sandbox = await controlled();
    const { refreshToken } = (await exchange(sandbox.mainUrl)).json;
    expect(sandbox.control.revokeSession(refreshToken)).toBe(true);
    expect(sandbox.control.revokeSession("not-a-token")).toBe(false);
    expectApiError(await refresh(sandbox.mainUrl, refreshToken), 401);
  });

  it("resets the rate limits, and everything", async () => {
    const sandbox = await controlled({ exchangeRateLimit: { limit: 1, windowMs: 60_000 } });
    expect((await exchange(sandbox.mainUrl)).status).toBe(200);
    expect((await exchange(sandbox.mainUrl)).status).toBe(429);
    sandbox.control.resetRateLimits();
    const { refreshToken } = (await exchange(sandbox.mainUrl)).json;
    sandbox.control.advance(5_000);
    sandbox.control.reset();
    expect(Math.abs(sandbox.control.now() - Date.now())).toBeLessThan(5_000);
    expectApiError(await refresh(sandbox.mainUrl, refreshToken), 401);
    expect((await exchange(sandbox.mainUrl)).status).toBe(200);
  });

  it("over HTTP: each action, on either host, and bad requests as the document's JSON error", async () => {
    const clock = manualClock();
    const sandbox = await controlled({ now: clock.now });
    const { accessToken, refreshToken } = (await exchange(sandbox.mainUrl)).json;
    const advanced = await call(sandbox.legacyUrl, CONTROL_PATH, post({ action: "advance", ms: 1_500 }));
    expect(advanced.status).toBe(200);
    expect(advanced.json.now).toBe(clock.now() + 1_500);
    expect((await call(sandbox.mainUrl, CONTROL_PATH, post({ action: "expire-tokens" }))).json.expired).toBe(
      1,
    );
    expectJwtExpired(await call(sandbox.mainUrl, "/voice/api/v1/admin/accounts", bearer(accessToken)));
    const revoked = await call(
      sandbox.mainUrl,
      CONTROL_PATH,
      post({ action: "revoke-session", refreshToken }),
    );
    expect(revoked.json.revoked).toBe(true);
    for (const action of ["reset-rate-limits", "reset"]) {
      expect((await call(sandbox.mainUrl, CONTROL_PATH, post({ action }))).status).toBe(200);
    }
    for (const [body, message] of [
      [{ action: "rewind" }, /action must be/],
      [{ action: "advance", ms: -1 }, /from 0 to a year/],
      [[1, 2], /JSON object/],
      ["x".repeat(2_000), /at most 1024 bytes/],
    ] as const) {
      expectApiError(await call(sandbox.mainUrl, CONTROL_PATH, post(body)), 400, message);
    }
    const plain = await call(sandbox.mainUrl, CONTROL_PATH, { method: "POST", body: "{}" });
    expectApiError(plain, 400, /application\/json/);
  });

  it("does not exist over HTTP unless enabled", async () => {
    const sandbox = await open();
    const answer = await call(sandbox.mainUrl, CONTROL_PATH, post({ action: "reset" }));
    expect(answer.status).toBe(404);
  });
});
