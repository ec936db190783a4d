import { RateLimitedError } from "./errors.js";
import type { Clock } from "./types.js";

/** What a token cycler asks of the exchange's limit. */
export interface ExchangeLimit {
  /** Resolves when an exchange may be made now; throws or ends on `signal` when it may not. */
  admit(signal?: AbortSignal): Promise<void>;
  /** An exchange admitted by `admit` is being made now. */
  record(): void;
  /** The server answered `429`: none until `retryAfterMs` has passed. */
  blockFor(retryAfterMs: number): void;
}

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
export function exchangeLimiter(perMinute: number, clock: Clock): ExchangeLimit & { check(): void } {
  const window = slidingWindow(perMinute, clock);
  /** Throws `RateLimitedError`, with the wait, when no exchange may be made now. */
  const check = () => {
    const wait = window.wait();
    if (wait > 0) {
      throw new RateLimitedError(wait, `The token exchange is rate limited (${perMinute} a minute)`);
    }
  };
  return {
    check,
    admit: async () => check(),
    record: () => window.record(),
    blockFor: (retryAfterMs) => window.blockFor(retryAfterMs),
  };
}

/**
 * One exchange budget for many managers (a tenant pool's): callers queue in turn, first come first
 * served, rather than fail, and each waits until a slot frees or its `signal` (every waiting caller
 * of that renewal gave up) ends the wait. The slot is taken on admission, so two tenants admitted in
 * one tick cannot both take the last one.
 */
export function sharedExchangeBudget(
  perMinute: number,
  clock: Clock,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
): ExchangeLimit {
  const window = slidingWindow(perMinute, clock);
  let line: Promise<void> = Promise.resolve();
  return {
    admit(signal) {
      const turn = line.then(async () => {
        for (let wait = window.wait(); wait > 0; wait = window.wait()) {
          signal?.throwIfAborted();
          await sleep(wait, signal);
        }
        signal?.throwIfAborted();
        window.record();
      });
      line = turn.catch(() => {});
      return turn;
    },
    record: () => {},
    blockFor: (retryAfterMs) => window.blockFor(retryAfterMs),
  };
}

/** The exchanges of the last minute, and a server's `Retry-After`. */
function slidingWindow(perMinute: number, clock: Clock) {
  const times: number[] = [];
  let blockedUntil = 0;
  return {
    /** How long until the next exchange may be made: 0 for now. */
    wait(): number {
      const now = clock.now();
      while (times.length > 0 && (times[0] as number) <= now - MINUTE) {
        times.shift();
      }
      const full = times.length >= perMinute ? (times[0] as number) + MINUTE - now : 0;
      return Math.max(blockedUntil - now, full, 0);
    },
    record(): void {
      times.push(clock.now());
    },
    blockFor(retryAfterMs: number): void {
      blockedUntil = clock.now() + retryAfterMs;
    },
  };
}
