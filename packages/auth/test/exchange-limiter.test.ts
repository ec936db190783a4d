// The local exchange limit at its home, on a fake clock: every number is `exchangeLimitDefaults`'.
import { fakeClock } from "@engage-voice/test-kit";
import { describe, expect, it } from "vitest";
import { RateLimitedError } from "../src/errors.js";
import { exchangeLimitDefaults, exchangeLimiter, inTurn } from "../src/exchange-limiter.js";

const { perMinute, windowMs } = exchangeLimitDefaults;

/** The wait `check()` asks for now: 0 when an exchange may be made. */
function waitOf(limiter: ReturnType<typeof exchangeLimiter>): number {
  try {
    limiter.check();
    return 0;
  } catch (error) {
    expect(error).toBeInstanceOf(RateLimitedError);
    return (error as RateLimitedError).retryAfterMs;
  }
}

describe("exchangeLimiter", () => {
  it.each([1, 3, perMinute])("lets %i through in a window, then asks for the rest of it", (limit) => {
    const clock = fakeClock();
    const limiter = exchangeLimiter(limit, clock);
    for (let i = 0; i < limit; i++) {
      expect(waitOf(limiter)).toBe(0);
      limiter.record();
    }
    expect(waitOf(limiter)).toBe(windowMs);
    clock.advance(windowMs - 1);
    expect(waitOf(limiter)).toBe(1);
    clock.advance(1);
    expect(waitOf(limiter)).toBe(0);
  });

  it("slides: the oldest exchange leaving the window frees one place", () => {
    const clock = fakeClock();
    const limiter = exchangeLimiter(perMinute, clock);
    const step = Math.floor(windowMs / (2 * perMinute));
    for (let i = 0; i < perMinute; i++) {
      limiter.record();
      clock.advance(step);
    }
    // The first was recorded perMinute steps ago.
    expect(waitOf(limiter)).toBe(windowMs - perMinute * step);
    clock.advance(windowMs - perMinute * step);
    expect(waitOf(limiter)).toBe(0);
    limiter.record();
    expect(waitOf(limiter)).toBe(step);
  });

  it.each<[string, number, number]>([
    ["a Retry-After longer than the window's wait wins", windowMs * 2, windowMs * 2],
    ["a Retry-After shorter than the window's wait loses to it", windowMs / 4, windowMs],
  ])("after a 429: %s", (_, retryAfterMs, wait) => {
    const clock = fakeClock();
    const limiter = exchangeLimiter(perMinute, clock);
    for (let i = 0; i < perMinute; i++) {
      limiter.record();
    }
    limiter.blockFor(retryAfterMs);
    expect(waitOf(limiter)).toBe(wait);
    clock.advance(wait);
    expect(waitOf(limiter)).toBe(0);
  });

  it("after a 429 with room in the window, waits Retry-After alone", () => {
    const clock = fakeClock();
    const limiter = exchangeLimiter(perMinute, clock);
    limiter.blockFor(1_234);
    expect(waitOf(limiter)).toBe(1_234);
    clock.advance(1_234);
    expect(waitOf(limiter)).toBe(0);
  });
});

describe("inTurn", () => {
  it("serves callers first come first served, each sleeping the wait it is told", async () => {
    const answers = [0, 500, 0, 0];
    const slept: number[] = [];
    const order: string[] = [];
    const take = inTurn(
      () => answers.shift() ?? 0,
      async (ms) => {
        slept.push(ms);
      },
    );
    await Promise.all(["a", "b", "c"].map((name) => take().then(() => order.push(name))));
    expect(order).toEqual(["a", "b", "c"]);
    expect(slept).toEqual([500]);
  });

  it("a caller that gives up leaves the line without a slot, and the next one goes on", async () => {
    let slots = 0;
    const controller = new AbortController();
    const take = inTurn(
      () => {
        slots++;
        return 0;
      },
      async () => {},
    );
    controller.abort(new Error("gave up"));
    await expect(take(controller.signal)).rejects.toThrow("gave up");
    await take();
    expect(slots).toBe(1);
  });
});
