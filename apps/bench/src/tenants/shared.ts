// What main.ts and its workers tell each other over child_process.fork's IPC channel.

export interface WorkerConfig {
  /** The sandbox's contact-center host; one Redis URL, or a cluster's masters (`cluster`). */
  baseUrl: string;
  redisUrls: string[];
  cluster: boolean;
  /** Tenants `tenant-1` to `tenant-<tenants>`, asked for at random `rate` times a second. */
  tenants: number;
  rate: number;
}

/** What one worker saw since its previous report. */
export interface WorkerStats {
  requests: number;
  /** getAccessToken() rejections by error code, and `expired_token_handed_out`. */
  errors: Record<string, number>;
  /** `waited` events (ms) of callers whose worker had served the tenant before: across an expiry. */
  expiryWaits: number[];
  /** Renewals this worker ran under a tenant's Redis lock (most find the set another one stored). */
  renewals: number;
}

export const emptyStats = (): WorkerStats => ({ requests: 0, errors: {}, expiryWaits: [], renewals: 0 });

export function merge(into: WorkerStats, from: WorkerStats): WorkerStats {
  into.requests += from.requests;
  into.renewals += from.renewals;
  for (const ms of from.expiryWaits) {
    into.expiryWaits.push(ms);
  }
  for (const [code, n] of Object.entries(from.errors)) {
    into.errors[code] = (into.errors[code] ?? 0) + n;
  }
  return into;
}

/** A token call sent and not yet settled by its renewal: what a SIGKILL takes with it. */
export type OnWire = { tenant: string; kind: "exchange" | "refresh" };

export type ToWorker =
  /** Ask at `rate`; until the ramp is over, only tenants 1..N*(now-rampStart)/rampMs. */
  | { type: "load"; rampStart: number; rampMs: number }
  /** Stop asking, wait until no caller and no renewal is left, report. */
  | { type: "pause" }
  /** Ask for every tenant's token at once, the pool empty: the cold start. */
  | { type: "cold" }
  /** SIGKILL itself once a refresh has been on the wire `minAgeMs`, its token calls written to `file`. */
  | { type: "die"; file: string; minAgeMs: number };

export type FromWorker =
  | { type: "ready" }
  | { type: "paused"; stats: WorkerStats }
  /** Every tenant served or refused, `ms` after the first call; the most token calls on the wire at once. */
  | { type: "cold"; stats: WorkerStats; ms: number; served: number; mostOnWire: number }
  /** After SIGTERM: the pool closed (drained: nothing was left in flight), Redis quit. */
  | { type: "closed"; stats: WorkerStats; drained: boolean; renewalsAtSigterm: number };
