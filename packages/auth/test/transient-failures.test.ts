import { describe, expect, it, vi } from "vitest";
import { backoffDefaults, backoffDelay } from "../src/backoff.js";
import { createTokenManager, NetworkError, type TokenSet, UnexpectedResponseError } from "../src/index.js";
import { BASE, type Fault, setup } from "./fake-server.js";
import { momentsNow, moveTo } from "./renewal-times.js";

const unavailable: Fault = { status: 503, body: "upstream down" };

/** Lets a background renewal finish: it runs on promises only, never on timers. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("transient failures", () => {
  it.each<[string, Fault]>([
    ["a 5xx", unavailable],
    ["a network error", "network"],
  ])(
    "while the token is valid: %s serves the current token and keeps the refresh token",
    async (_, fault) => {
      const onTokens = vi.fn();
      const s = setup({ onTokens });
      const first = await s.auth.getAccessToken();
      const stored = (onTokens.mock.calls[0] as [TokenSet])[0].refreshToken;
      moveTo(s.clock, momentsNow(s.clock, s.auth).inWindow);
      s.server.fail("refresh", fault);
      expect(await s.auth.getAccessToken()).toBe(first);
      await vi.waitFor(
        () => expect(s.logs.some((l) => l.includes("the current token stays in use"))).toBe(true),
        {
          interval: 1,
        },
      );
      expect(await s.auth.getAccessToken()).toBe(first); // backing off: no new call yet
      expect(s.server.calls.refresh).toBe(1);
      s.clock.advance(backoffDefaults.firstMs);
      expect(await s.auth.getAccessToken()).toBe(first); // this call starts the retry
      await vi.waitFor(() => expect(onTokens).toHaveBeenCalledTimes(2), { interval: 1 });
      expect(s.server.refreshTokensSent).toEqual([stored, stored]);
      expect(await s.auth.getAccessToken()).not.toBe(first);
    },
  );

  it("times out a token call that gets no answer", async () => {
    const s = setup({ timeoutMs: 5 });
    s.server.fail("exchange", "hang", "hang", "hang");
    const error = await s.auth.getAccessToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: "network_error", timedOut: true });
    expect(s.server.calls.exchange).toBe(3);
  });

  it("backs off with jitter: the delay depends on the random source", async () => {
    // Longer than the shortest first wait, shorter than the longest.
    const between = (backoffDelay(0, () => 0) + backoffDelay(0, () => 0.99)) / 2;
    const attempts = async (random: number) => {
      const s = setup({ random: () => random });
      await s.auth.getAccessToken();
      moveTo(s.clock, momentsNow(s.clock, s.auth).inWindow);
      s.server.fail("refresh", unavailable);
      await s.auth.getAccessToken();
      await vi.waitFor(() => expect(s.logs.some((l) => l.includes("next try in"))).toBe(true), {
        interval: 1,
      });
      s.clock.advance(between);
      await s.auth.getAccessToken();
      await settle();
      return s.server.calls.refresh;
    };
    expect(await attempts(0)).toBe(2);
    expect(await attempts(0.99)).toBe(1);
  });

  it("with no valid token left, retries a bounded number of times with growing waits", async () => {
    const s = setup();
    await s.auth.getAccessToken();
    s.clock.advance(301_000);
    s.server.fail("refresh", unavailable, unavailable, unavailable, unavailable);
    const error = await s.auth.getAccessToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ code: "unexpected_response", status: 503 });
    expect(s.server.calls.refresh).toBe(3);
    const random = () => 0.5; // setup's
    expect(s.sleeps).toEqual([backoffDelay(0, random), backoffDelay(1, random)]);
    expect(s.server.calls.exchange).toBe(1);
    // The refresh token survived: the next call refreshes with it.
    await s.auth.getAccessToken();
    expect(s.server.calls.exchange).toBe(1);
    expect(new Set(s.server.refreshTokensSent).size).toBe(1);
  });

  it("a refresh whose answer was lost: one more try is refused, then one exchange", async () => {
    const s = setup();
    await s.auth.getAccessToken();
    s.clock.advance(301_000);
    s.server.fail("refresh", "lost"); // rotated on the server, answer never arrived
    const token = await s.auth.getAccessToken();
    expect(token).toMatch(/^ey/);
    expect(s.server.calls.refresh).toBe(2);
    expect(s.server.calls.exchange).toBe(2);
    expect(s.server.refreshTokensSent[0]).toBe(s.server.refreshTokensSent[1]);
    s.clock.advance(301_000);
    await s.auth.getAccessToken();
    expect(s.server.calls.refresh).toBe(3);
    expect(s.server.calls.exchange).toBe(2);
  });

  it("a lost answer while the token is still valid: bounded calls, then a new session", async () => {
    const s = setup();
    const first = await s.auth.getAccessToken();
    moveTo(s.clock, momentsNow(s.clock, s.auth).inWindow);
    s.server.fail("refresh", "lost");
    for (let i = 0; i < 100; i++) {
      await s.auth.getAccessToken();
      await settle();
      s.clock.advance(100);
    }
    expect(s.server.calls.refresh).toBe(2);
    expect(s.server.calls.exchange).toBe(2);
    expect(await s.auth.getAccessToken()).not.toBe(first);
  });

  it("a long outage costs a bounded number of token calls", async () => {
    const s = setup();
    await s.auth.getAccessToken();
    const { renewsAt, unservableAt } = momentsNow(s.clock, s.auth);
    moveTo(s.clock, renewsAt);
    s.server.fail("refresh", ...Array.from({ length: 1000 }, () => unavailable));
    // Ten calls a second for as long as the token is still sent: each wait of the backoff allows
    // one more refresh, no call more.
    const span = unservableAt - renewsAt - 1;
    for (let at = 0; at < span; at += 100) {
      await s.auth.getAccessToken().catch(() => {});
      await settle();
      s.clock.advance(100);
    }
    let waits = 0;
    for (let waited = backoffDelay(0, () => 0.5); waited <= span; waits++) {
      waited += backoffDelay(waits + 1, () => 0.5);
    }
    expect(s.server.calls.refresh).toBeLessThanOrEqual(1 + waits);
    expect(s.server.calls.exchange).toBe(1);
  });
});

describe("defaults", () => {
  it("use the global fetch and a real timer between retries", async () => {
    // clearTimeout is faked too: a real one cannot clear a fake timer.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { server, clock } = setup();
    // The retry line is written just before the sleep starts its timer. Waiting on it needs no
    // polling: vi.waitFor would move the fake clock on each check.
    let retryLogged!: () => void;
    const retrying = new Promise<void>((resolve) => {
      retryLogged = resolve;
    });
    const logger = {
      warn: (message: string) => {
        if (message.includes(`trying again in ${backoffDefaults.firstMs / 2} ms`)) {
          retryLogged();
        }
      },
    };
    vi.stubGlobal("fetch", server.fetch);
    try {
      const auth = createTokenManager({
        baseUrl: BASE,
        rcAccessToken: server.parentToken,
        clock,
        random: () => 0,
        logger,
      });
      server.fail("exchange", unavailable);
      const token = auth.getAccessToken();
      await retrying;
      // The wait, and the clients' one deadline timer, which the finished exchange left set (and
      // unref'd) for the next call.
      expect(vi.getTimerCount()).toBe(2);
      expect(server.calls.exchange).toBe(1);
      await vi.advanceTimersByTimeAsync(backoffDefaults.firstMs / 2 - 1);
      expect(server.calls.exchange).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(await token).toMatch(/^ey/);
      expect(server.calls.exchange).toBe(2);
    } finally {
      vi.unstubAllGlobals();
      vi.useRealTimers();
    }
  });
});

describe("a refresh that timed out", () => {
  it("is not presented again: the service most likely spent it, so the next try exchanges", async () => {
    // The hanging refresh ends at this deadline; the calls that answer take far less, even on a busy
    // machine.
    const s = setup({ timeoutMs: 1_000 });
    await s.auth.getAccessToken();
    s.clock.advance(301_000);
    s.server.fail("refresh", "hang");
    expect(await s.auth.getAccessToken()).toMatch(/^ey/);
    expect(s.server.refreshTokensSent).toHaveLength(1);
    expect(s.server.calls.exchange).toBeGreaterThanOrEqual(2);
    expect(s.logs.join("\n")).toMatch(
      /refresh timed out: its refresh token may be spent and is not presented again/,
    );
  });
});
