// A call's deadline is armed when the turn of the event loop it started in ends, for the time left:
// a call answered within its turn makes no timer. The time left is read on an injected clock; the
// turns are real (setImmediate), the timers are read from a spy, and no verdict depends on how long
// a timer took.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Deadline, waitingForTheirTurn } from "../src/deadline.js";
import { createClient, RequestTimeoutError } from "../src/index.js";
import { stubFetch } from "./stub-fetch.js";

const USERS = "/voice/api/v1/admin/users";
const quiet = { logger: {}, random: () => 0 };
const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));
/** A fetch that answers only its signal's abort. */
const hanging = (_: Request, init?: RequestInit) =>
  new Promise<Response>((_, reject) =>
    init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
  );

/**
 * The deadline timers among the timers set, told apart by a delay no one else uses: `timeoutMs`
 * less what the turn took, which a busy machine can make seconds long.
 */
function deadlineTimers(spy: { mock: { calls: unknown[][] } }, timeoutMs: number) {
  return spy.mock.calls.filter(
    ([, delay]) => typeof delay === "number" && delay > timeoutMs - 10_000 && delay <= timeoutMs,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a call's deadline", () => {
  it("makes no timer for calls answered within their turn", async () => {
    const spy = vi.spyOn(globalThis, "setTimeout");
    const { fetch } = stubFetch(() => Response.json([]));
    const client = createClient({ fetch, ...quiet, timeoutMs: 654_321 });
    for (let i = 0; i < 1000; i++) {
      await client.GET(USERS);
    }
    await endOfTurn();
    expect(deadlineTimers(spy, 654_321)).toHaveLength(0);
  });

  it("arms one timer at the end of the turn for a call still waiting then", async () => {
    const spy = vi.spyOn(globalThis, "setTimeout");
    const controller = new AbortController();
    const call = createClient({ fetch: hanging, ...quiet, timeoutMs: 654_321 }).GET(USERS, {
      signal: controller.signal,
    });
    expect(deadlineTimers(spy, 654_321)).toHaveLength(0);
    await endOfTurn();
    expect(deadlineTimers(spy, 654_321)).toHaveLength(1);
    controller.abort(new Error("done"));
    await expect(call).rejects.toThrow("done");
  });

  it("is armed for the time left after a long turn, read on the timers' time base", async () => {
    const spy = vi.spyOn(globalThis, "setTimeout");
    let now = 1_000;
    const fired = vi.fn();
    const deadline = new Deadline(30_000, fired, () => now);
    now += 400;
    await endOfTurn();
    expect(spy).toHaveBeenCalledWith(expect.any(Function), 29_600);
    deadline.end(false);
    expect(fired).not.toHaveBeenCalled();
  });

  it("fires at once when the turn took longer than the deadline", async () => {
    let now = 0;
    const fired = vi.fn();
    new Deadline(100, fired, () => now);
    now += 250;
    await endOfTurn();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fired).toHaveBeenCalledOnce();
  });

  it("keeps guarding a body read after the call returns, on a timer that holds no process", () => {
    const spy = vi.spyOn(globalThis, "setTimeout");
    new Deadline(654_321, () => {}).end(true);
    const timers = spy.mock.results.map((result) => result.value as NodeJS.Timeout);
    expect(timers).toHaveLength(1);
    expect(timers[0]?.hasRef()).toBe(false);
    clearTimeout(timers[0]);
  });

  it("is armed even when fake timers were uninstalled before the end of the turn they were to run", async () => {
    const { fetch } = stubFetch(() => Response.json([]));
    await endOfTurn(); // no turn already scheduled on the real timers
    vi.useFakeTimers();
    try {
      // Its deadline schedules the end of its turn on the fake timers...
      await createClient({ fetch, ...quiet }).GET(USERS);
    } finally {
      // ...which drop it, never run.
      vi.useRealTimers();
    }
    const call = createClient({ fetch: hanging, ...quiet, timeoutMs: 50 }).GET(USERS);
    await expect(call).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it("drops the calls that ended from a turn that never yields", async () => {
    const { fetch } = stubFetch(() => Response.json([]));
    const client = createClient({ fetch, ...quiet });
    for (let i = 0; i < 5_000; i++) {
      await client.GET(USERS);
    }
    expect(waitingForTheirTurn()).toBeLessThanOrEqual(512);
    await endOfTurn();
    expect(waitingForTheirTurn()).toBe(0);
  });
});
