// What main.ts and its workers tell each other over the IPC channel of child_process.fork.

export interface WorkerConfig {
  /** The sandbox's contact-center host. */
  baseUrl: string;
  /** One URL: a redis-server; several: the masters of a Redis Cluster (root nodes). */
  redisUrls: string[];
  cluster: boolean;
  /** Tenants `tenant-1` to `tenant-<tenants>`, the sandbox's tenants 1 to N. */
  tenants: number;
  /** getAccessToken() calls a second, each for a tenant drawn at random. */
  rate: number;
}

/** A token call sent and not yet settled by its renewal: what a SIGKILL takes with it. */
export interface OnWire {
  tenant: string;
  kind: "exchange" | "refresh";
  ms: number;
}

/** What one worker saw since its previous report. */
export interface WorkerStats {
  requests: number;
  /** getAccessToken() rejections, by error code. */
  errors: Record<string, number>;
  /** Access tokens handed out whose JWT `exp` had passed. */
  expiredTokens: number;
  /** `waited` events (ms) of callers whose worker had served the tenant before: across an expiry. */
  expiryWaits: number[];
  /** `waited` events (ms) of a tenant's first use in this worker (a store read, or the exchange). */
  firstWaits: number[];
  exchanged: number;
  refreshed: number;
  /** Renewals this worker ran under a tenant's Redis lock (most find the set another one stored). */
  renewals: number;
  /** The event loop's delay (ms), p99 and max over the period: how late this worker ran its timers. */
  loopDelayP99: number;
  loopDelayMax: number;
  /** Commands the stores sent, by client method (a script's own commands are not among them). */
  sent: Record<string, number>;
  /** The managers' warnings and errors, tenant names and numbers left out, by message. */
  logs: Record<string, number>;
}

export type ToWorker =
  /** Start asking; tenants 1..N*(now-rampStart)/rampMs only, until the ramp is over. */
  | { type: "load"; rampStart: number; rampMs: number }
  /** Stop asking, wait until no caller and no renewal is left, report (after GC with `heap`). */
  | { type: "pause"; heap: boolean }
  /** SIGKILL itself once a refresh has been on the wire `minAgeMs`, its token calls written to `file`. */
  | { type: "die"; file: string; minAgeMs: number };

export type FromWorker =
  /** Connected, holding no tenant: the heap of a worker with nothing to serve. */
  | { type: "ready"; heapUsed: number }
  | { type: "paused"; stats: WorkerStats; heapUsed: number; held: number }
  /** After SIGTERM: the pool closed (drained: nothing was left in flight), Redis quit. */
  | { type: "closed"; stats: WorkerStats; drained: boolean; renewalsAtSigterm: number };

/** A worker's figures before it has done anything. */
export const emptyStats = (): WorkerStats => ({
  requests: 0,
  errors: {},
  expiredTokens: 0,
  expiryWaits: [],
  firstWaits: [],
  exchanged: 0,
  refreshed: 0,
  renewals: 0,
  loopDelayP99: 0,
  loopDelayMax: 0,
  sent: {},
  logs: {},
});
