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
 * One exchange budget for many token managers (a tenant pool's, `createTenantPool({ exchangeBudget })`),
 * in this process (a number a minute) or across processes (`redisExchangeBudget` of
 * `@engage-voice/store-redis`).
 */
export interface ExchangeBudget {
  /**
   * Resolves once an exchange may be made now, and counts it; while the budget is spent, waits its
   * turn. Rejects with `signal`'s reason once it aborts (every caller waiting for that renewal gave
   * up), and with a typed error when the budget cannot be read.
   */
  take(signal?: AbortSignal): Promise<void>;
  /** The service answered `429`: no exchange of any manager on this budget until `retryAfterMs` passed. */
  blockFor(retryAfterMs: number): void | Promise<void>;
}

/** A wait for a budget, in milliseconds: 0 when a slot was taken. */
export type TakeOrWait = () => number | Promise<number>;

/**
 * Callers of one process in turn, first come first served: each turn asks `next` for a slot until it
 * gets one, sleeping the wait it is told between tries, so two callers of one tick cannot both take
 * the last slot, and a caller that gives up (`signal`) leaves the line without a slot.
 */
export function inTurn(
  next: TakeOrWait,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
): (signal?: AbortSignal) => Promise<void> {
  let line: Promise<void> = Promise.resolve();
  return (signal) => {
    const turn = line.then(async () => {
      signal?.throwIfAborted();
      for (let wait = await next(); wait > 0; wait = await next()) {
        await sleep(wait, signal);
        signal?.throwIfAborted();
      }
    });
    line = turn.catch(() => {});
    return turn;
  };
}

/** An exchange budget of `perMinute` for the managers of this process: they queue rather than fail. */
export function sharedExchangeBudget(
  perMinute: number,
  clock: Clock,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
): ExchangeBudget {
  const window = slidingWindow(perMinute, clock);
  return {
    take: inTurn(() => {
      const wait = window.wait();
      if (wait === 0) {
        window.record();
      }
      return wait;
    }, sleep),
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
