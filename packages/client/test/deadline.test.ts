// Every call's deadline rides on one timer, set for the earliest deadline held. Time runs on fake
// timers and the timer's injected clock (Date, which the fake timers move); the timers set are read
// from a spy; no verdict depends on how long a real timer took. What a real process does with the
// timer (stays alive for a call, ends once none waits) is deadline-process.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Deadline, DeadlineTimer } from "../src/deadline.js";
import { createClient, RequestTimeoutError } from "../src/index.js";
import { stubFetch } from "./stub-fetch.js";

const USERS = "/voice/api/v1/admin/users";
const quiet = { logger: {}, random: () => 0 };
/** A fetch that answers only its signal's abort. */
const hanging = (_: Request, init?: RequestInit) =>
  new Promise<Response>((_, reject) =>
    init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
  );

/** The timers set, as the handles setTimeout returned. */
const handles = (spy: { mock: { results: { value: unknown }[] } }) =>
  spy.mock.results.map((result) => result.value as NodeJS.Timeout);

afterEach(() => {
  // Spies first: a spy on the fake setTimeout, restored after the real timers were, would put the
  // fake one back, and every file after this one in the worker would run on timers nothing moves.
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe("the deadline timer", () => {
  let timer: DeadlineTimer;
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    timer = new DeadlineTimer(() => Date.now());
  });

  it("ends each deadline at its own time, however many share the timer", () => {
    const ended: string[] = [];
    new Deadline(300, () => ended.push("300 ms"), timer);
    new Deadline(500, () => ended.push("500 ms"), timer);
    vi.advanceTimersByTime(100);
    new Deadline(100, () => ended.push("100 ms, started 100 ms later"), timer);
    vi.advanceTimersByTime(99);
    expect(ended).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ended).toEqual(["100 ms, started 100 ms later"]);
    vi.advanceTimersByTime(99);
    expect(ended).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(ended).toEqual(["100 ms, started 100 ms later", "300 ms"]);
    vi.advanceTimersByTime(200);
    expect(ended).toEqual(["100 ms, started 100 ms later", "300 ms", "500 ms"]);
    expect(timer.size).toBe(0);
  });

  it("sets one timer for calls that start and end one after the other", () => {
    const spy = vi.spyOn(globalThis, "setTimeout");
    const fired = vi.fn();
    for (let i = 0; i < 1_000; i++) {
      new Deadline(30_000, fired, timer).end(false);
      vi.advanceTimersByTime(10);
    }
    expect(spy).toHaveBeenCalledTimes(1);
    // Past the first deadline the timer fires with nothing due, and is not set again for nothing.
    vi.advanceTimersByTime(30_000);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(fired).not.toHaveBeenCalled();
  });

  it("sets the timer again only for a deadline earlier than the one it is set for", () => {
    const spy = vi.spyOn(globalThis, "setTimeout");
    const fired = vi.fn();
    new Deadline(30_000, fired, timer);
    new Deadline(40_000, fired, timer);
    expect(spy).toHaveBeenCalledTimes(1);
    new Deadline(5_000, fired, timer);
    expect(spy).toHaveBeenCalledTimes(2);
    expect(spy).toHaveBeenLastCalledWith(expect.any(Function), 5_000);
  });

  it("holds the process while a call is in flight, and not once none is", () => {
    const spy = vi.spyOn(globalThis, "setTimeout");
    const first = new Deadline(30_000, () => {}, timer);
    const second = new Deadline(30_000, () => {}, timer);
    const [handle] = handles(spy);
    expect(handle?.hasRef()).toBe(true);
    first.end(false);
    expect(handle?.hasRef()).toBe(true);
    second.end(false);
    expect(handle?.hasRef()).toBe(false);
    // The next call takes the same timer, which holds the process again.
    const third = new Deadline(30_000, () => {}, timer);
    expect(handles(spy)).toHaveLength(1);
    expect(handle?.hasRef()).toBe(true);
    third.end(false);
  });

  it("keeps guarding a body read after the call returns, without holding the process", () => {
    const spy = vi.spyOn(globalThis, "setTimeout");
    const fired = vi.fn();
    new Deadline(1_000, fired, timer).end(true);
    expect(handles(spy)[0]?.hasRef()).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(fired).toHaveBeenCalledOnce();
  });

  it("forgets what an ended call would have run", () => {
    const fired = vi.fn();
    const deadline = new Deadline(1_000, fired, timer);
    deadline.end(false);
    deadline.end(true);
    vi.advanceTimersByTime(2_000);
    expect(fired).not.toHaveBeenCalled();
    expect(timer.size).toBe(0);
  });

  it("is set on the timers in place when the ones it was set on were uninstalled", () => {
    const fired = vi.fn();
    // Set on these fake timers, which are uninstalled before they run it...
    new Deadline(60_000, () => {}, timer).end(false);
    vi.useRealTimers();
    vi.useFakeTimers({ now: 2_000_000 });
    // ...so a later deadline sets it on the timers now in place.
    new Deadline(100, fired, timer);
    vi.advanceTimersByTime(100);
    expect(fired).toHaveBeenCalledOnce();
  });
});

describe("a call's deadline", () => {
  it("ends a call wherever it is, with its typed error", async () => {
    vi.useFakeTimers();
    const call = createClient({ fetch: hanging, ...quiet, timeoutMs: 1_000 }).GET(USERS);
    const settled = expect(call).rejects.toBeInstanceOf(RequestTimeoutError);
    await vi.advanceTimersByTimeAsync(1_000);
    await settled;
  });

  it("leaves nothing on the shared timer once calls are done", async () => {
    const spy = vi.spyOn(globalThis, "setTimeout");
    const { fetch } = stubFetch(() => Response.json([]));
    const client = createClient({ fetch, ...quiet, timeoutMs: 654_321 });
    for (let i = 0; i < 1_000; i++) {
      await client.GET(USERS);
    }
    const deadlineTimers = spy.mock.calls.filter(([, delay]) => (delay as number) > 600_000);
    // One at most: the first call of this file on the process's shared timer may have set it.
    expect(deadlineTimers.length).toBeLessThanOrEqual(1);
    expect(handles(spy).every((handle) => !handle.hasRef())).toBe(true);
  });
});
