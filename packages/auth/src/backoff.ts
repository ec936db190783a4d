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
