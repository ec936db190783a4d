import { describe, expect, it } from "vitest";
import { exchangeLimitDefaults } from "../src/exchange-limiter.js";
import { ExchangeRejectedError, memoryStore, RateLimitedError } from "../src/index.js";
import { type FakeServer, setup } from "./fake-server.js";
import { momentsNow, moveTo } from "./renewal-times.js";

describe("exchange rate limit", () => {
  it("never has more than one exchange in flight", async () => {
    let inFlight = 0;
    let most = 0;
    let server: FakeServer | undefined;
    const s = setup({
      fetch: async (request) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 2));
        try {
          return await (server as FakeServer).fetch(request);
        } finally {
          inFlight--;
        }
      },
    });
    server = s.server;
    await Promise.all([
      ...Array.from({ length: 50 }, () => s.auth.getAccessToken()),
      ...Array.from({ length: 10 }, () => s.auth.refresh()),
    ]);
    expect(most).toBe(1);
    expect(s.server.calls.exchange).toBe(1);
  });

  it("a 429 advises a store that outlives the run, as a call that works (with its tenant)", async () => {
    const s = setup();
    s.server.fail("exchange", { status: 429, headers: { "Retry-After": "30" } });
    const error = (await s.auth.getAccessToken().catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/createTokenManager\(\{ tenant, store: fileStore\(path\) \}\)/);
  });

  it("a 429 of a manager that keeps its session in a store points at the others spending the limit", async () => {
    const s = setup({ tenant: "acme", store: memoryStore() });
    s.server.fail("exchange", { status: 429, headers: { "Retry-After": "30" } });
    const error = (await s.auth.getAccessToken().catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/other managers exchange for the same user/);
    expect(error.message).not.toMatch(/fileStore/);
  });

  it("honours Retry-After in seconds: no exchange before it has passed", async () => {
    const s = setup();
    s.server.fail("exchange", { status: 429, headers: { "Retry-After": "30" } });
    const error = await s.auth.getAccessToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ code: "rate_limited", status: 429, retryAfterMs: 30_000 });
    s.clock.advance(20_000);
    const waiting = await s.auth.getAccessToken().catch((e: unknown) => e);
    expect(waiting).toMatchObject({ code: "rate_limited", retryAfterMs: 10_000 });
    expect(s.server.calls.exchange).toBe(1);
    s.clock.advance(10_000);
    expect(await s.auth.getAccessToken()).toMatch(/^ey/);
    expect(s.server.calls.exchange).toBe(2);
  });

  it("honours Retry-After as an HTTP date, read against the server's own clock", async () => {
    const s = setup({}, { skewMs: 3_600_000 });
    const retryAt = new Date(s.server.serverNow() + 20_000).toUTCString();
    s.server.fail("exchange", { status: 429, headers: { "Retry-After": retryAt } });
    const error = (await s.auth.getAccessToken().catch((e: unknown) => e)) as RateLimitedError;
    expect(error.retryAfterMs).toBeGreaterThan(19_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(21_000);
  });

  it("waits a minute when a 429 gives no Retry-After", async () => {
    const s = setup();
    s.server.fail("exchange", { status: 429 });
    await expect(s.auth.getAccessToken()).rejects.toMatchObject({ retryAfterMs: 60_000 });
  });

  it("makes no exchange storm whatever callers do: at most the limit in a window", async () => {
    const { perMinute, windowMs } = exchangeLimitDefaults;
    const s = setup({ rcAccessToken: "rc-refused" });
    const errors: unknown[] = [];
    // Over most of one window, 200 tries.
    for (let i = 0; i < 100; i++) {
      errors.push(await s.auth.getAccessToken().catch((e: unknown) => e));
      errors.push(await s.auth.refresh().catch((e: unknown) => e));
      await s.auth.logout();
      s.clock.advance(windowMs / 120);
    }
    expect(s.server.calls.exchange).toBe(perMinute);
    expect(errors.slice(0, perMinute).every((e) => e instanceof ExchangeRejectedError)).toBe(true);
    expect(errors.slice(perMinute).every((e) => e instanceof RateLimitedError)).toBe(true);
    s.clock.advance(windowMs);
    await s.auth.getAccessToken().catch(() => {});
    expect(s.server.calls.exchange).toBe(perMinute + 1);
  });

  it("keeps serving a valid token while exchanges are rate limited", async () => {
    const s = setup();
    const first = await s.auth.getAccessToken();
    s.server.revokeRefreshTokens(); // the refresh is refused: renewing needs an exchange
    const { inWindow, unservableAt, window } = momentsNow(s.clock, s.auth);
    // Longer than the whole window: no second try while the token is served.
    const retryAfter = String(Math.ceil((2 * window) / 1_000));
    s.server.fail("exchange", { status: 429, headers: { "Retry-After": retryAfter } });
    moveTo(s.clock, inWindow);
    // A call a second for as long as the token may be sent.
    while (s.clock.now() < unservableAt) {
      expect(await s.auth.getAccessToken()).toBe(first);
      await new Promise((resolve) => setTimeout(resolve, 0));
      s.clock.advance(1_000);
    }
    expect(s.server.calls.exchange).toBe(2);
    // Backing off quietly: not a warning for every call.
    expect(s.logs.filter((l) => l.startsWith("warn")).length).toBeLessThanOrEqual(4);
  });
});
