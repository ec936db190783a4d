// The exchange's budgets at their home, on a fake clock: every number is `exchangeLimitDefaults`'.
import { fakeClock } from "@engage-voice/test-kit";
import { describe, expect, it } from "vitest";
import { RateLimitedError } from "../src/errors.js";
import {
  BudgetSpent,
  type ExchangeBudget,
  exchangeBudget,
  exchangeLimitDefaults,
  exchangeSlots,
} from "../src/exchange-limiter.js";
import { sharedSlots } from "../src/pool-renewals.js";

const { perMinute, windowMs, marginMs, maxBlockMs } = exchangeLimitDefaults;
/** The service counts a minute from each exchange's arrival: a budget keeps the margin on top. */
const window = windowMs + marginMs;

describe("exchangeBudget", () => {
  it.each([1, 3, perMinute])("gives %i slots in a window, then says how long until the next", (limit) => {
    const clock = fakeClock();
    const budget = exchangeBudget(limit, clock);
    for (let i = 0; i < limit; i++) {
      expect(budget.take()).toBe(0);
    }
    expect(budget.take()).toBe(window);
    clock.advance(window - 1);
    expect(budget.take()).toBe(1);
    clock.advance(1);
    expect(budget.take()).toBe(0);
  });

  it("slides: the oldest exchange leaving the window frees one slot", () => {
    const clock = fakeClock();
    const budget = exchangeBudget(perMinute, clock);
    const step = Math.floor(windowMs / (2 * perMinute));
    for (let i = 0; i < perMinute; i++) {
      budget.take();
      clock.advance(step);
    }
    expect(budget.take()).toBe(window - perMinute * step);
    clock.advance(window - perMinute * step);
    expect(budget.take()).toBe(0);
    expect(budget.take()).toBe(step);
  });

  it.each<[string, number, number]>([
    ["a Retry-After longer than the window's wait wins", window * 2, window * 2],
    ["a Retry-After shorter than the window's wait loses to it", window / 4, window],
    ["a Retry-After past the longest honoured is capped, so no timer overflows", 30 * 86_400_000, maxBlockMs],
  ])("after a 429: %s", (_, retryAfterMs, wait) => {
    const clock = fakeClock();
    const budget = exchangeBudget(perMinute, clock);
    for (let i = 0; i < perMinute; i++) {
      budget.take();
    }
    budget.blockFor(retryAfterMs);
    expect(budget.take()).toBe(wait);
    clock.advance(wait);
    expect(budget.take()).toBe(0);
  });
});

describe("exchangeSlots", () => {
  const sharedOf = (waits: number[]) => {
    const taken: number[] = [];
    const shared: ExchangeBudget = {
      take: async () => {
        const wait = waits.shift() ?? 0;
        taken.push(wait);
        return wait;
      },
      blockFor: () => {},
    };
    return { shared, taken };
  };

  it("the tenant's own limit answers rate_limited at once, without asking the shared budget", async () => {
    const clock = fakeClock();
    const { shared, taken } = sharedOf([]);
    const slots = exchangeSlots(1, clock, sharedSlots(shared, {}));
    await slots.take();
    await expect(slots.take()).rejects.toBeInstanceOf(RateLimitedError);
    expect(taken).toEqual([0]);
  });

  it("a spent shared budget is BudgetSpent with its wait, and the tenant's own slot stays unspent", async () => {
    const clock = fakeClock();
    const { shared } = sharedOf([5_000, 0]);
    const slots = exchangeSlots(1, clock, sharedSlots(shared, {}));
    const spent = await slots.take().catch((e: unknown) => e);
    expect(spent).toBeInstanceOf(BudgetSpent);
    expect(spent).toMatchObject({ code: "rate_limited", retryAfterMs: 5_000 });
    await slots.take(); // the own limit of 1 was not spent by the refused take
  });

  it("tells both budgets of a 429, and logs a shared one that cannot be told", async () => {
    const clock = fakeClock();
    const lines: string[] = [];
    const shared: ExchangeBudget = {
      take: () => 0,
      blockFor: async () => {
        throw new Error("connection lost");
      },
    };
    const slots = exchangeSlots(5, clock, sharedSlots(shared, { error: (line) => lines.push(line) }));
    slots.blockFor(1_000);
    await expect(slots.take()).rejects.toMatchObject({ retryAfterMs: 1_000 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([expect.stringMatching(/could not be told of a 429/)]);
  });
});
