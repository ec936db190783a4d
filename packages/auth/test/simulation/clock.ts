// One clock for the whole simulated world. Time moves only when the simulation says so; every wait
// of every process (retries, lock polls, heartbeats, callers' deadlines) is a timer on it.

interface Timer {
  at: number;
  order: number;
  run: () => void;
}

export function simClock(start = 1_700_000_000_000) {
  let now = start;
  let order = 0;
  let timers: Timer[] = [];
  const clock = {
    now: () => now,
    /** Runs `run` once the clock reaches `now + ms`; returns the cancel. */
    after(ms: number, run: () => void): () => void {
      const timer = { at: now + Math.max(0, ms), order: order++, run };
      timers.push(timer);
      return () => {
        timers = timers.filter((t) => t !== timer);
      };
    },
    /** A sleep as the SDK takes it: ends early, rejecting, when `signal` aborts. */
    sleep(ms: number, signal?: AbortSignal): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const onAbort = () => {
          cancel();
          reject(signal?.reason);
        };
        const cancel = clock.after(ms, () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        });
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    /** Moves the clock by `ms`, running each timer that falls due, in order, with `settle` after each. */
    async advance(ms: number, settle: () => Promise<void>): Promise<void> {
      const until = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at || a.order - b.order)[0];
        if (!due) {
          break;
        }
        timers = timers.filter((t) => t !== due);
        now = Math.max(now, due.at);
        due.run();
        await settle();
      }
      now = until;
    },
    pending: () => timers.length,
  };
  return clock;
}

export type SimClock = ReturnType<typeof simClock>;

/** Lets every promise chain that can move on do so: no I/O runs in the simulation, so one turn is all. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
