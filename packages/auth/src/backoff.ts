import { backoffDelay as backoff } from "@engage-voice/client/internal";

/** The waits between token calls after a transient failure: longer than an API call's (the client's). */
export const backoffDefaults = { firstMs: 1_000, maxMs: 30_000 } as const;

/**
 * The client's exponential backoff with jitter on these windows: between half and all of
 * `firstMs × 2^step`, capped at `maxMs`, and never shorter than a `Retry-After` the server gave.
 */
export function backoffDelay(step: number, random: () => number, retryAfterMs = 0): number {
  return backoff(step, random, retryAfterMs, backoffDefaults);
}

/**
 * The waits of a session that keeps serving its token while renewals fail: failures in a row, and
 * when the next renewal may start. A caller that waits for a token retries per attempt instead.
 */
export function keptTokenBackoff(random: () => number) {
  let failures = 0;
  let nextAttemptAt = 0;
  return {
    /** Whether a renewal may start now. */
    due: (now: number) => now >= nextAttemptAt,
    /** One more failure: the wait before the next try, never shorter than a server's `Retry-After`. */
    failed(now: number, retryAfterMs?: number): number {
      const delay = backoffDelay(failures++, random, retryAfterMs);
      nextAttemptAt = now + delay;
      return delay;
    },
    /** A renewal succeeded, or the session was logged out. */
    reset(): void {
      failures = 0;
      nextAttemptAt = 0;
    },
  };
}

export type KeptTokenBackoff = ReturnType<typeof keptTokenBackoff>;
