import { RateLimitedError } from "./errors.js";
import type { Clock } from "./types.js";

/**
 * The token exchange's limit as observed on the service: the manager's default `exchangesPerMinute`,
 * and the sliding window it is counted over.
 */
export const exchangeLimitDefaults = { perMinute: 5, windowMs: 60_000 } as const;

const MINUTE = exchangeLimitDefaults.windowMs;

/**
 * Keeps the token exchange under its limit (`exchangeLimitDefaults`) on this side, so that a burst of
 * renewals never earns a `429`; after a `429` it lets none through until `Retry-After` has passed.
 */
export function exchangeLimiter(perMinute: number, clock: Clock) {
  const times: number[] = [];
  let blockedUntil = 0;
  return {
    /** Throws `RateLimitedError`, with the wait, when no exchange may be made now. */
    check(): void {
      const now = clock.now();
      while (times.length > 0 && (times[0] as number) <= now - MINUTE) {
        times.shift();
      }
      const full = times.length >= perMinute ? (times[0] as number) + MINUTE - now : 0;
      const wait = Math.max(blockedUntil - now, full);
      if (wait > 0) {
        throw new RateLimitedError(wait, `The token exchange is rate limited (${perMinute} a minute)`);
      }
    },
    /** An exchange is being made now. */
    record(): void {
      times.push(clock.now());
    },
    /** The server answered `429`: none until `retryAfterMs` has passed. */
    blockFor(retryAfterMs: number): void {
      blockedUntil = clock.now() + retryAfterMs;
    },
  };
}
