import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Lease, type LeaseTiming, withLease } from "../src/store-kit.js";

/** A lease whose tries answer from a script, and a clock that only the pauses move. */
function scripted(takes: (boolean | Error)[]) {
  let now = 1_000_000;
  const pauses: number[] = [];
  const remaining: number[] = [];
  const calls: string[] = [];
  const lease: Lease = {
    take: vi.fn(async (remainingMs: number) => {
      remaining.push(remainingMs);
      calls.push("take");
      const next = takes.shift() ?? false;
      if (next instanceof Error) {
        throw next;
      }
      return next;
    }),
    renew: vi.fn(async () => {
      calls.push("renew");
      return true;
    }),
    release: vi.fn(async () => {
      calls.push("release");
    }),
  };
  const timedOut = new Error("stayed held");
  const timing = (timeoutMs: number): LeaseTiming => ({
    timeoutMs,
    renewEveryMs: 100,
    timedOut: () => timedOut,
    now: () => now,
    pause: async (ms) => {
      pauses.push(ms);
      now += ms;
    },
    random: () => 0.5,
  });
  return { lease, timing, pauses, remaining, calls, timedOut };
}

describe("withLease: waiting", () => {
  it("takes a free lease at once, runs the task, then releases", async () => {
    const s = scripted([true]);
    expect(await withLease(s.lease, s.timing(5_000), async () => "done")).toBe("done");
    expect(s.calls).toEqual(["take", "release"]);
    expect(s.remaining).toEqual([5_000]);
    expect(s.pauses).toEqual([]);
  });

  it("backs off from 10 ms, doubling to 200 ms, with jitter, until the lease is free", async () => {
    const s = scripted([false, false, false, false, false, false, false, true]);
    await withLease(s.lease, s.timing(60_000), async () => {});
    // random 0.5: each wait is wait/2 + 0.5 * wait, the wait itself.
    expect(s.pauses).toEqual([10, 20, 40, 80, 160, 200, 200]);
    expect(s.remaining).toEqual([60_000, 59_990, 59_970, 59_930, 59_850, 59_690, 59_490, 59_290]);
  });

  it("the jitter follows the random source", async () => {
    const s = scripted([false, false, true]);
    await withLease(s.lease, { ...s.timing(60_000), random: () => 0 }, async () => {});
    expect(s.pauses).toEqual([5, 10]);
  });

  it("fails with the store's error once the wait is over, without running the task", async () => {
    const s = scripted([]);
    const task = vi.fn(async () => {});
    const error = await withLease(s.lease, s.timing(300), task).catch((e: unknown) => e);
    expect(error).toBe(s.timedOut);
    expect(task).not.toHaveBeenCalled();
    expect(s.calls).not.toContain("release");
    // The last pause is cut to what is left, and a last try follows it.
    expect(s.pauses).toEqual([10, 20, 40, 80, 150]);
    expect(s.remaining.at(-1)).toBe(0);
  });

  it("a timeout of 0 is one try", async () => {
    const s = scripted([false]);
    await expect(withLease(s.lease, s.timing(0), async () => {})).rejects.toBe(s.timedOut);
    expect(s.calls).toEqual(["take"]);
  });

  it("a try that throws ends the wait with that error", async () => {
    const broken = new Error("the lock path is a directory");
    const s = scripted([false, broken, true]);
    await expect(withLease(s.lease, s.timing(60_000), async () => {})).rejects.toBe(broken);
    expect(s.calls).toEqual(["take", "take"]);
  });
});

describe("withLease: holding", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A task that holds the lease until `finish()`. */
  function heldTask() {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    return { task: () => done, finish };
  }

  it("renews every renewEveryMs while the task runs, and stops once it is done", async () => {
    const s = scripted([true]);
    const { task, finish } = heldTask();
    const held = withLease(s.lease, s.timing(1_000), task);
    await vi.advanceTimersByTimeAsync(350);
    expect(s.lease.renew).toHaveBeenCalledTimes(3);
    finish();
    await held;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(s.lease.renew).toHaveBeenCalledTimes(3);
    expect(s.calls.at(-1)).toBe("release");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("skips beats while the last renewal has had no answer", async () => {
    const s = scripted([true]);
    let answer!: (ours: boolean) => void;
    s.lease.renew = vi.fn(
      () =>
        new Promise<boolean>((resolve) => {
          answer = resolve;
        }),
    );
    const { task, finish } = heldTask();
    const held = withLease(s.lease, s.timing(1_000), task);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(s.lease.renew).toHaveBeenCalledTimes(1);
    answer(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(s.lease.renew).toHaveBeenCalledTimes(2);
    finish();
    await held;
  });

  it("stops renewing a lease that is no longer ours", async () => {
    const s = scripted([true]);
    s.lease.renew = vi.fn(async () => false);
    const { task, finish } = heldTask();
    const held = withLease(s.lease, s.timing(1_000), task);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(s.lease.renew).toHaveBeenCalledTimes(1);
    finish();
    await held;
  });

  it("a renewal that fails is tried again on the next beat", async () => {
    const s = scripted([true]);
    s.lease.renew = vi.fn(async () => {
      throw new Error("no answer from Redis");
    });
    const { task, finish } = heldTask();
    const held = withLease(s.lease, s.timing(1_000), task);
    await vi.advanceTimersByTimeAsync(300);
    expect(s.lease.renew).toHaveBeenCalledTimes(3);
    finish();
    await held;
  });

  it("releases when the task fails, and the task's error stands", async () => {
    const s = scripted([true]);
    const failure = new Error("the renewal failed");
    await expect(
      withLease(s.lease, s.timing(1_000), async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(s.calls).toEqual(["take", "release"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a release that fails does not replace the task's outcome", async () => {
    const s = scripted([true]);
    s.lease.release = vi.fn(async () => {
      throw new Error("Redis went away");
    });
    expect(await withLease(s.lease, s.timing(1_000), async () => "token set")).toBe("token set");
    expect(s.lease.release).toHaveBeenCalledTimes(1);
  });

  it("the task's hold asks the lease now: held() renews it and answers whether it is still ours", async () => {
    const s = scripted([true]);
    const answers = [true, false];
    s.lease.renew = vi.fn(async () => answers.shift() ?? false);
    const seen = await withLease(s.lease, s.timing(1_000), async (hold) => {
      const first = { held: await hold.held?.(), aborted: hold.aborted };
      const second = { held: await hold.held?.(), aborted: hold.aborted };
      // Known lost: no further question is asked.
      const third = await hold.held?.();
      return [first, second, third];
    });
    expect(seen).toEqual([{ held: true, aborted: false }, { held: false, aborted: true }, false]);
    expect(s.lease.renew).toHaveBeenCalledTimes(2);
  });

  it("a beat that comes due while the task's check is unanswered is skipped: one renewal at a time", async () => {
    const s = scripted([true]);
    const pending: ((ours: boolean) => void)[] = [];
    let running = 0;
    let most = 0;
    s.lease.renew = vi.fn(
      () =>
        new Promise<boolean>((resolve) => {
          running++;
          most = Math.max(most, running);
          pending.push((ours) => {
            running--;
            resolve(ours);
          });
        }),
    );
    const { task, finish } = heldTask();
    let check: Promise<boolean | undefined> | undefined;
    const held = withLease(s.lease, s.timing(1_000), async (hold) => {
      check = hold.held?.();
      return task();
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(s.lease.renew).toHaveBeenCalledTimes(1); // the check's own
    await vi.advanceTimersByTimeAsync(100); // a beat comes due: skipped while the check is unanswered
    expect(s.lease.renew).toHaveBeenCalledTimes(1);
    pending.shift()?.(true);
    expect(await check).toBe(true);
    expect(most).toBe(1);
    finish();
    await held;
  });

  it("a check whose renewal throws rejects: an unknown answer is not a hold", async () => {
    const s = scripted([true]);
    const broken = new Error("no answer from Redis");
    s.lease.renew = vi.fn(async () => {
      throw broken;
    });
    const outcome = await withLease(s.lease, s.timing(1_000), async (hold) => hold.held?.()).catch(
      (e: unknown) => e,
    );
    expect(outcome).toBe(broken);
  });
});
