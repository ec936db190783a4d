// Refresh coalescing: N callers that need a token together, just after it expired, must cause one
// token call between them and all get the new token. Two kinds of caller are checked: getAccessToken()
// (timed: how long a caller waits for the renewal) and whole calls through the client and middleware
// (the token each request was sent with).
import { median, quantile } from "./measure.ts";

export interface CoalescingSubject {
  /** Resolves to a valid access token, renewing it when needed. */
  getToken(): Promise<string>;
  /** One authorised API call; resolves to the access token it was sent with. */
  call(): Promise<string>;
  /** Moves past the current token's expiry. */
  expire(): Promise<void> | void;
  /** Token calls made so far. */
  tokenCalls(): number;
}

export interface CoalescingResult {
  concurrency: number;
  /** Expiries crossed by each kind of caller: small bursts are repeated so that latencies are not one sample. */
  expiries: number;
  /** Token calls per expiry, getAccessToken() bursts then middleware bursts; each must be 1. */
  tokenCalls: number[];
  /** Every caller after an expiry got (or sent) the same new token. */
  allGotNewToken: boolean;
  /** What a getAccessToken() caller waits across an expiry, ms. */
  medianMs: number;
  p99Ms: number;
  /** What it waits with a valid token, ms: the latency the expiry adds to is this. */
  validMedianMs: number;
  validP99Ms: number;
}

async function burst(
  run: () => Promise<string>,
  size: number,
): Promise<{ latencies: number[]; tokens: string[] }> {
  const latencies: number[] = new Array(size);
  const tokens = await Promise.all(
    Array.from({ length: size }, (_, i) => {
      const start = performance.now();
      return run().then((token) => {
        latencies[i] = performance.now() - start;
        return token;
      });
    }),
  );
  return { latencies, tokens };
}

/** Runs `expiries` rounds of: a burst with a valid token, an expiry, a burst across it; for both kinds of caller. */
export async function measureCoalescing(
  subject: CoalescingSubject,
  concurrency: number,
  expiries = 1,
): Promise<CoalescingResult> {
  const getToken = () => subject.getToken();
  const call = () => subject.call();
  // A first burst lets the JIT settle, so that the reference burst is not the slower one by order.
  await burst(getToken, Math.min(concurrency, 100));
  const valid: number[] = [];
  const across: number[] = [];
  const tokenCalls: number[] = [];
  let allGotNewToken = true;

  async function crossExpiry(run: () => Promise<string>): Promise<number[]> {
    const before = await burst(getToken, concurrency);
    const oldToken = before.tokens[0];
    if (before.tokens.some((t) => t !== oldToken)) {
      throw new Error("callers with a valid token got different tokens");
    }
    await subject.expire();
    const calls = subject.tokenCalls();
    const after = await burst(run, concurrency);
    tokenCalls.push(subject.tokenCalls() - calls);
    const newToken = after.tokens[0];
    allGotNewToken &&= newToken !== oldToken && after.tokens.every((t) => t === newToken);
    valid.push(...before.latencies);
    return after.latencies;
  }

  for (let i = 0; i < expiries; i++) {
    across.push(...(await crossExpiry(getToken)));
  }
  for (let i = 0; i < expiries; i++) {
    await crossExpiry(call);
  }
  const validMedianMs = median(valid);
  const validP99Ms = quantile(valid, 0.99);
  return {
    concurrency,
    expiries,
    tokenCalls,
    allGotNewToken,
    medianMs: median(across),
    p99Ms: quantile(across, 0.99),
    validMedianMs,
    validP99Ms,
  };
}
