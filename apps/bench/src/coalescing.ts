// Refresh coalescing: N calls started together just after the access token expired must cause one
// token call between them, and all must go out with the new token. The latency a call gains from the
// refresh is its time across the expiry minus its time, in a burst of the same size, with a valid token.
import { median, quantile } from "./measure.ts";

export interface CoalescingSubject {
  /** One authorised call; resolves to the access token it was sent with. */
  call(): Promise<string>;
  /** Moves past the current token's expiry. */
  expire(): Promise<void> | void;
  /** Token calls made so far. */
  tokenCalls(): number;
}

export interface CoalescingResult {
  concurrency: number;
  /** Expiries crossed: small bursts are repeated so that their latency is not one sample. */
  expiries: number;
  /** Token calls made per expiry; each must be 1. */
  tokenCalls: number[];
  allGotNewToken: boolean;
  /** Added latency per call, in ms. */
  medianMs: number;
  p99Ms: number;
  /** Latency with a valid token, in ms: the reference of the added latency. */
  validMedianMs: number;
  validP99Ms: number;
}

async function burst(
  subject: CoalescingSubject,
  size: number,
): Promise<{ latencies: number[]; tokens: string[] }> {
  const latencies: number[] = new Array(size);
  const tokens = await Promise.all(
    Array.from({ length: size }, (_, i) => {
      const start = performance.now();
      return subject.call().then((token) => {
        latencies[i] = performance.now() - start;
        return token;
      });
    }),
  );
  return { latencies, tokens };
}

/**
 * `expiries` times: a burst of `concurrency` calls with a valid token, then the clock moves past the
 * expiry and a burst of the same size follows. Latencies are pooled over the expiries.
 */
export async function measureCoalescing(
  subject: CoalescingSubject,
  concurrency: number,
  expiries = 1,
): Promise<CoalescingResult> {
  // A first burst lets the JIT settle, so that the reference burst is not the slower one by order.
  await burst(subject, Math.min(concurrency, 100));
  const valid: number[] = [];
  const across: number[] = [];
  const tokenCalls: number[] = [];
  let allGotNewToken = true;
  for (let i = 0; i < expiries; i++) {
    const before = await burst(subject, concurrency);
    const oldToken = before.tokens[0];
    if (before.tokens.some((t) => t !== oldToken))
      throw new Error("calls with a valid token sent different tokens");
    await subject.expire();
    const calls = subject.tokenCalls();
    const after = await burst(subject, concurrency);
    tokenCalls.push(subject.tokenCalls() - calls);
    const newToken = after.tokens[0];
    allGotNewToken &&= newToken !== oldToken && after.tokens.every((t) => t === newToken);
    valid.push(...before.latencies);
    across.push(...after.latencies);
  }
  const validMedianMs = median(valid);
  const validP99Ms = quantile(valid, 0.99);
  return {
    concurrency,
    expiries,
    tokenCalls,
    allGotNewToken,
    medianMs: median(across) - validMedianMs,
    p99Ms: quantile(across, 0.99) - validP99Ms,
    validMedianMs,
    validP99Ms,
  };
}
