import { RateLimitedError, VERBOSE } from "./errors.js";
import type { Clock } from "./types.js";

/**
 * The token exchange's limit as observed on the service: the manager's default `exchangesPerMinute`,
 * the sliding window it is counted over, the margin a budget keeps (the service counts from arrival,
 * a budget from admission), and the longest `Retry-After` a budget honours as it is.
 */
export const exchangeLimitDefaults = {
  perMinute: 5,
  windowMs: 60_000,
  marginMs: 2_000,
  maxBlockMs: 3_600_000,
} as const;

/**
 * A budget of token exchanges: a tenant's own limit, a pool's budget in this process, or one shared
 * by every process on a Redis (`redisExchangeBudget` of `@engage-voice/store-redis`). One interface
 * for all: a take that never waits, so that a renewal never waits for a slot while it holds a lock.
 */
export interface ExchangeBudget {
  /**
   * Takes a slot when one is free now and resolves 0; otherwise takes nothing and resolves how long
   * until the next slot frees, in ms. Rejects with a typed error when the budget cannot be read.
   */
  take(): number | Promise<number>;
  /** The service answered `429`: no exchange on this budget until `retryAfterMs` has passed. */
  blockFor(retryAfterMs: number): void | Promise<void>;
}

/**
 * A budget of `perMinute` exchanges a sliding minute on `clock` (and the margin: the service counts
 * from each exchange's arrival), with a `429`'s `Retry-After`.
 */
export function exchangeBudget(perMinute: number, clock: Clock): ExchangeBudget & { wait(): number } {
  const { maxBlockMs } = exchangeLimitDefaults;
  const windowMs = exchangeLimitDefaults.windowMs + exchangeLimitDefaults.marginMs;
  const times: number[] = [];
  let blockedUntil = 0;
  const wait = () => {
    const now = clock.now();
    while (times.length > 0 && (times[0] as number) <= now - windowMs) {
      times.shift();
    }
    const full = times.length >= perMinute ? (times[0] as number) + windowMs - now : 0;
    return Math.max(blockedUntil - now, full, 0);
  };
  return {
    wait,
    take() {
      const ms = wait();
      if (ms === 0) {
        times.push(clock.now());
      }
      return ms;
    },
    blockFor(retryAfterMs) {
      blockedUntil = Math.max(blockedUntil, clock.now() + Math.min(retryAfterMs, maxBlockMs));
    },
  };
}

/**
 * The shared budget is spent: the renewal lets go of its lock, waits `retryAfterMs` outside it, and
 * tries again; past the manager's deadline, its callers get this error, which says when the next slot is.
 * Thrown by a pool's shared slots only (pool-renewals.ts).
 */
export class BudgetSpent extends RateLimitedError {}

/** What a token cycler asks of the exchange's budgets before each exchange, and tells them after. */
export interface ExchangeSlots {
  /** Takes a slot of the tenant's own limit and of the shared budget, or throws a `RateLimitedError`. */
  take(): Promise<void>;
  /** The service answered `429`: both budgets stop until `retryAfterMs` has passed. */
  blockFor(retryAfterMs: number): void;
}

/**
 * The tenant's own limit (`exchangesPerMinute`: the service limits the exchange per user) and, in a
 * pool, the slots of the budget its tenants share (pool-renewals.ts). The own slot is taken only once
 * the shared one is, so a tenant that waits for the shared budget does not spend its own meanwhile.
 */
export function exchangeSlots(perMinute: number, clock: Clock, shared?: ExchangeSlots): ExchangeSlots {
  const own = exchangeBudget(perMinute, clock);
  return {
    async take() {
      const ownWait = own.wait();
      if (ownWait > 0) {
        throw new RateLimitedError(
          ownWait,
          VERBOSE ? `The token exchange is rate limited (${perMinute} a minute)` : "exchange",
        );
      }
      await shared?.take();
      own.take();
    },
    blockFor(retryAfterMs) {
      own.blockFor(retryAfterMs);
      shared?.blockFor(retryAfterMs);
    },
  };
}
