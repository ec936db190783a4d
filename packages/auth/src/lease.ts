// One lease loop for every store that locks: the file store's lock file and Redis's key differ in how
// they take, keep and give up a lease, never in when. Waiting backs off with jitter up to a deadline,
// and the holder renews on a heartbeat, one renewal at a time.
import type { LockHold } from "./store.js";

/** How one store takes, keeps and gives up its lease. */
export interface Lease {
  /**
   * One try to take the lease: true when taken, false when another holder has it. `remainingMs` is
   * what is left of the wait, for a try that must not outlive it. A throw ends the wait at once.
   */
  take(remainingMs: number): Promise<boolean>;
  /**
   * Keeps the held lease alive. False: it is no longer ours (it expired and was taken over), so the
   * heartbeat stops. A throw is forgiven by the heartbeat (the next beat tries again); the task's own
   * check (`held()` of its hold) gets it.
   */
  renew(): Promise<boolean>;
  /**
   * Gives the lease up if it is still ours. Called once, whatever the task's outcome; a throw is
   * ignored, since a lease not given up only delays the next holder until it expires. A renewal may
   * still be under way: a store whose late renewal could touch the next holder's lease waits for it
   * here (the file store does); one whose commands run in order on one connection need not (Redis).
   */
  release(): Promise<void>;
}

export interface LeaseTiming {
  /** How long to wait for the lease; 0 is one try. */
  timeoutMs: number;
  /** How often the holder renews: a third of the lease's life lets two renewals fail in a row. */
  renewEveryMs: number;
  /** The error when the wait ends: it names what stayed held, and why if known. */
  timedOut: () => Error;
  /** Milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
  /** Waits between tries. Default a timer. */
  pause?: (ms: number) => Promise<void>;
  /** Between 0 and 1: spreads the waiters' tries apart. Default `Math.random`. */
  random?: () => number;
}

/** The first wait between tries; it doubles up to the last. */
export const FIRST_WAIT_MS = 10;
export const LAST_WAIT_MS = 200;

const timerPause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits for the lease (or fails with `timing.timedOut()`), then runs `task` while holding it. The task
 * gets a hold whose `held()` renews the lease now and answers whether it is still ours: one renewal at
 * a time with the heartbeat's, so a check never races a beat.
 */
export async function withLease<T>(
  lease: Lease,
  timing: LeaseTiming,
  task: (hold: LockHold) => Promise<T>,
): Promise<T> {
  const { now = Date.now, pause = timerPause, random = Math.random } = timing;
  const deadline = now() + timing.timeoutMs;
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LAST_WAIT_MS)) {
    if (await lease.take(deadline - now())) {
      break;
    }
    const left = deadline - now();
    if (left <= 0) {
      throw timing.timedOut();
    }
    await pause(Math.max(1, Math.min(wait / 2 + random() * wait, left)));
  }
  let lost = false;
  // A beat while the last renewal has had no answer is skipped: beats must not pile up behind a
  // stalled server and then all reach it at once.
  let renewing: Promise<unknown> | undefined;
  const renew = (): Promise<boolean> => {
    const renewed = lease.renew();
    const settled = renewed
      .then(
        (ours) => {
          if (!ours) {
            lost = true;
            clearInterval(heartbeat as Parameters<typeof clearInterval>[0]);
          }
        },
        () => {},
      )
      .finally(() => {
        if (renewing === settled) {
          renewing = undefined;
        }
      });
    renewing = settled;
    return renewed;
  };
  const heartbeat = setInterval(() => {
    if (!renewing) {
      renew().catch(() => {});
    }
  }, timing.renewEveryMs) as { unref?: () => void };
  heartbeat.unref?.();
  const hold: LockHold = {
    get aborted() {
      return lost;
    },
    async held() {
      // A beat under way answers for a moment already past: the check waits for it, then asks again.
      while (renewing && !lost) {
        await renewing;
      }
      return !lost && (await renew());
    },
  };
  try {
    return await task(hold);
  } finally {
    clearInterval(heartbeat as Parameters<typeof clearInterval>[0]);
    await lease.release().catch(() => {});
  }
}
