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
}

/** `Retry-After` in whole seconds, never 0: a client that waits that long will get through. */
export function retryAfterSeconds(waitMs: number): string {
  return String(Math.max(1, Math.ceil(waitMs / 1000)));
}
