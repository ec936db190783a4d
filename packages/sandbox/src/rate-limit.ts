import type { RateLimit } from "./options.js";

/** A sliding-window log: at most `limit` accepted requests in any `windowMs`. Rejected ones do not count. */
export class SlidingWindow {
  readonly #times: number[] = [];

  constructor(readonly limit: RateLimit) {}

  /** Records a request at `now`; answers `undefined` when accepted, or the milliseconds to wait. */
  take(now: number): number | undefined {
    const start = now - this.limit.windowMs;
    while (this.#times.length > 0 && (this.#times[0] as number) <= start) {
      this.#times.shift();
    }
    if (this.#times.length >= this.limit.limit) {
      return (this.#times[0] as number) + this.limit.windowMs - now;
    }
    this.#times.push(now);
    return undefined;
  }

  /** Forgets every request: the window starts empty. */
  reset(): void {
    this.#times.length = 0;
  }

  /** Whether no request of the window is still in it at `now`: forgetting it changes nothing. */
  idle(now: number): boolean {
    const last = this.#times.at(-1);
    return last === undefined || last <= now - this.limit.windowMs;
  }
}

/** Windows kept before the first sweep: a sweep costs one pass over them. */
const FIRST_SWEEP = 1_024;

/**
 * A sliding window per key (a tenant, a user), each with the same limit. Windows that no longer
 * hold a request are dropped when the map has doubled since the last sweep, so memory follows the
 * keys active within one window, not every key ever seen.
 */
export class KeyedWindows {
  readonly #windows = new Map<string, SlidingWindow>();
  #sweepAt = FIRST_SWEEP;

  constructor(readonly limit: RateLimit) {}

  /** As {@link SlidingWindow.take}, in the window of `key`. */
  take(key: string, now: number): number | undefined {
    let window = this.#windows.get(key);
    if (!window) {
      if (this.#windows.size >= this.#sweepAt) {
        this.#sweep(now);
      }
      window = new SlidingWindow(this.limit);
      this.#windows.set(key, window);
    }
    return window.take(now);
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) {
      if (window.idle(now)) {
        this.#windows.delete(key);
      }
    }
    this.#sweepAt = Math.max(FIRST_SWEEP, this.#windows.size * 2);
  }

  /** How many windows are kept, for tests that show it stays bounded. */
  get size(): number {
    return this.#windows.size;
  }

  reset(): void {
    this.#windows.clear();
    this.#sweepAt = FIRST_SWEEP;
  }
}

/** `Retry-After` in whole seconds, never 0: a client that waits that long will get through. */
export function retryAfterSeconds(waitMs: number): string {
  return String(Math.max(1, Math.ceil(waitMs / 1000)));
}
