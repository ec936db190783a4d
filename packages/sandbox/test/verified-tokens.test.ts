// A token the sandbox verified once is remembered (src/jwt.ts), so that the check on every authorised
// call costs a look-up: through the app, the remembered token still expires at its exact `exp` on the
// sandbox's injected clock, and "expire every token now" refuses it at once. A revoked session's
// refresh tokens are refused at once too: the memory holds access tokens only.
import { describe, expect, it } from "vitest";
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

const ACCOUNTS = "/voice/api/v1/admin/accounts";
const LIFETIME_MS = 60_000;

describe("a remembered access token", () => {
  it("answers until the millisecond before its exp on the sandbox's clock, and not at it", async () => {
    const clock = manualClock();
    const sandbox = await open({ tokenLifetimeMs: LIFETIME_MS, now: clock.now });
    const { accessToken } = (await exchange(sandbox.mainUrl)).json;
    for (let i = 0; i < 20; i++) {
      expect((await call(sandbox.mainUrl, ACCOUNTS, bearer(accessToken))).status).toBe(200);
    }
    clock.advance(LIFETIME_MS - 1);
    expect((await call(sandbox.mainUrl, ACCOUNTS, bearer(accessToken))).status).toBe(200);
    clock.advance(1);
    expectJwtExpired(await call(sandbox.mainUrl, ACCOUNTS, bearer(accessToken)));
  });

  it("is refused at once when every token is expired by the control", async () => {
    const sandbox = await open({ tokenLifetimeMs: LIFETIME_MS, control: { enabled: true } });
    const { accessToken } = (await exchange(sandbox.mainUrl)).json;
    expect((await call(sandbox.mainUrl, ACCOUNTS, bearer(accessToken))).status).toBe(200);
    sandbox.control.expireAccessTokens();
    expectJwtExpired(await call(sandbox.mainUrl, ACCOUNTS, bearer(accessToken)));
  });

  it("does not keep a revoked session's refresh token working", async () => {
    const sandbox = await open({ tokenLifetimeMs: LIFETIME_MS, control: { enabled: true } });
    const { accessToken, refreshToken } = (await exchange(sandbox.mainUrl)).json;
    expect((await call(sandbox.mainUrl, ACCOUNTS, bearer(accessToken))).status).toBe(200);
    sandbox.control.revokeSession(refreshToken);
    expectApiError(await refresh(sandbox.mainUrl, refreshToken), 401);
  });
});
