// One exchange budget across processes: each "process" is a budget on its own connection, all on one
// fake clock whose sleeps move it, against the test redis-server.
import { randomUUID } from "node:crypto";
import { exchangeLimitDefaults } from "@engage-voice/auth/store-kit";
import { fakeClock } from "@engage-voice/test-kit";
import { describe, expect, it } from "vitest";
import { budgetKeys, type RedisLike, redisExchangeBudget } from "../src/index.js";
import { connect } from "./helpers.js";

const { windowMs, marginMs, maxBlockMs } = exchangeLimitDefaults;
/** The service counts a minute from each exchange's arrival: the budget keeps the margin on top. */
const window = windowMs + marginMs;

/** `processes` budgets of `perMinute` under one fresh name, on one fake clock. */
async function processesOn(perMinute: number, processes = 2) {
  const name = `b-${randomUUID()}`;
  const clock = fakeClock();
  const budgets = await Promise.all(
    Array.from({ length: processes }, async () =>
      redisExchangeBudget({ client: await connect(), perMinute, name, clock }),
    ),
  );
  return { budgets, clock, keys: budgetKeys(name) };
}

describe("redisExchangeBudget", () => {
  it("is shared by every process on it: perMinute slots between them, then the wait until the oldest leaves", async () => {
    const { budgets, clock } = await processesOn(3);
    const [a, b] = budgets as [(typeof budgets)[0], (typeof budgets)[0]];
    expect(await a.take()).toBe(0);
    clock.advance(1_000);
    expect(await b.take()).toBe(0);
    expect(await a.take()).toBe(0);
    // The first slot (taken at the start) leaves the window at the start + the window; nothing is taken.
    expect(await b.take()).toBe(window - 1_000);
    expect(await b.take()).toBe(window - 1_000);
    clock.advance(window - 1_000);
    expect(await b.take()).toBe(0);
  });

  it("a 429 told by one process stops every process until its Retry-After, capped", async () => {
    const { budgets } = await processesOn(10);
    const [a, b] = budgets as [(typeof budgets)[0], (typeof budgets)[0]];
    await a.blockFor(5_000);
    await a.blockFor(1_000); // an earlier end does not shorten it
    expect(await b.take()).toBe(5_000);
    await a.blockFor(30 * 86_400_000); // a wait no timer could hold
    expect(await b.take()).toBe(maxBlockMs);
  });

  it("counts the minute on the Redis server's clock when given none: processes whose clocks disagree agree", async () => {
    const name = `b-${randomUUID()}`;
    const budgets = await Promise.all(
      [1, 2].map(async () => redisExchangeBudget({ client: await connect(), perMinute: 1, name })),
    );
    expect(await budgets[0]?.take()).toBe(0);
    const wait = (await budgets[1]?.take()) as number;
    expect(wait).toBeGreaterThan(window - 5_000);
    expect(wait).toBeLessThanOrEqual(window);
  });

  it("keeps the window's entries no longer than the minute", async () => {
    const { budgets, keys } = await processesOn(5, 1);
    await budgets[0]?.take();
    const ttl = await (await connect()).pTTL(keys.window);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(window);
  });

  it.each<[string, Partial<RedisLike>]>([
    ["does not answer", { evalSha: () => new Promise(() => {}) }],
    [
      "fails",
      { evalSha: () => Promise.reject(new Error("READONLY You can't write against a read only replica")) },
    ],
    ["answers something else than a wait", { evalSha: async () => "OK" }],
  ])("makes no exchange when Redis %s: store_failed, named", async (_, broken) => {
    const client = { eval: async () => 0, ...broken } as unknown as RedisLike;
    const budget = redisExchangeBudget({ client, perMinute: 5, commandTimeoutMs: 50 });
    await expect(budget.take()).rejects.toMatchObject({
      code: "store_failed",
      message: expect.stringMatching(/^The exchange budget/),
    });
  });

  it.each<[string, object, RegExp]>([
    ["no perMinute", {}, /needs perMinute/],
    ["perMinute 0", { perMinute: 0 }, /perMinute/],
    ["a name with a brace", { perMinute: 5, name: "a}b" }, /name must be/],
    ["an unknown option", { perMinute: 5, perMinutes: 5 }, /perMinutes/],
  ])("refuses %s, naming the fix", async (_, options, message) => {
    const client = await connect();
    expect(() => redisExchangeBudget({ client, ...options } as never)).toThrow(message);
  });
});
