// One exchange budget across processes: each "process" is a budget on its own connection, all on one
// fake clock whose sleeps move it, against the test redis-server.
import { randomUUID } from "node:crypto";
import { exchangeLimitDefaults } from "@engage-voice/auth/store-kit";
import { fakeClock } from "@engage-voice/test-kit";
import { describe, expect, it } from "vitest";
import { budgetKeys, type RedisLike, redisExchangeBudget } from "../src/index.js";
import { connect } from "./helpers.js";

const { windowMs } = exchangeLimitDefaults;

/** `processes` budgets of `perMinute` under one fresh name, the waits they slept, and the clock. */
async function processesOn(perMinute: number, processes = 2) {
  const name = `b-${randomUUID()}`;
  const clock = fakeClock();
  const slept: number[] = [];
  const sleep = async (ms: number) => {
    slept.push(ms);
    clock.advance(ms);
  };
  const budgets = await Promise.all(
    Array.from({ length: processes }, async () =>
      redisExchangeBudget({ client: await connect(), perMinute, name, clock, sleep }),
    ),
  );
  return { budgets, clock, slept, keys: budgetKeys(name) };
}

describe("redisExchangeBudget", () => {
  it("is shared by every process on it: perMinute slots between them, then the oldest's end is waited for", async () => {
    const { budgets, slept, clock } = await processesOn(3);
    const [a, b] = budgets as [(typeof budgets)[0], (typeof budgets)[0]];
    const start = clock.now();
    await a.take();
    clock.advance(1_000);
    await b.take();
    await a.take();
    expect(slept).toEqual([]);
    await b.take();
    // The first slot (taken at start) leaves the minute at start + windowMs.
    expect(slept).toEqual([windowMs - 1_000]);
    expect(clock.now()).toBe(start + windowMs);
  });

  it("a 429 told by one process stops every process until its Retry-After", async () => {
    const { budgets, slept } = await processesOn(10);
    const [a, b] = budgets as [(typeof budgets)[0], (typeof budgets)[0]];
    await a.blockFor(5_000);
    await a.blockFor(1_000); // an earlier end does not shorten it
    await b.take();
    expect(slept).toEqual([5_000]);
  });

  it("a caller that gives up while it waits leaves without a slot", async () => {
    const name = `b-${randomUUID()}`;
    const client = await connect();
    const clock = fakeClock();
    const never = (_ms: number, signal?: AbortSignal) =>
      new Promise<void>((_resolve, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));
    const budget = redisExchangeBudget({ client, perMinute: 1, name, clock, sleep: never });
    await budget.take();
    const controller = new AbortController();
    const waiting = budget.take(controller.signal);
    controller.abort(new Error("every caller gave up"));
    await expect(waiting).rejects.toThrow("every caller gave up");
    expect(await client.zCard(budgetKeys(name).window)).toBe(1);
  });

  it("keeps the window's entries no longer than the minute", async () => {
    const { budgets, keys } = await processesOn(5, 1);
    await budgets[0]?.take();
    const ttl = await (await connect()).pTTL(keys.window);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(windowMs);
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
