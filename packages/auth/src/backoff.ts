/** The waits between tries after a transient failure. */
export const backoffDefaults = { firstMs: 1_000, maxMs: 30_000 } as const;

/**
 * Exponential backoff with jitter: between half and all of `firstMs × 2^step`, capped at `maxMs`, and
 * never shorter than a `Retry-After` the server gave.
 */
export function backoffDelay(step: number, random: () => number, retryAfterMs = 0): number {
  const cap = Math.min(backoffDefaults.firstMs * 2 ** step, backoffDefaults.maxMs);
  return Math.max(cap / 2 + (random() * cap) / 2, retryAfterMs);
}
