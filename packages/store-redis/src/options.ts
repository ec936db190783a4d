import { invalidOptions, requireTenant as requireTenantId } from "@engage-voice/auth/store-kit";

/** The defaults of `redisStore()`'s options, in milliseconds where a time. The README quotes them. */
export const redisStoreDefaults = {
  prefix: "engage-voice",
  /**
   * A set nobody renewed for a week belongs to a tenant that stopped using the service: its refresh
   * token has most likely expired by then (the API does not publish its lifetime), and live
   * credentials of a gone customer should not stay in Redis for ever. A tenant that comes back later
   * costs one exchange of its parent token.
   */
  setTtlMs: 7 * 24 * 3_600_000,
  /**
   * Short: a holder that was SIGKILLed blocks its tenant at most this long. Its heartbeat extends the
   * lock every third of it, so a renewal itself may take as long as it needs.
   */
  lockTtlMs: 4_000,
  lockTimeoutMs: 120_000,
  commandTimeoutMs: 5_000,
} as const;

/**
 * The node-redis (6.1 or newer) cluster options a store's client needs to follow a failover: without
 * them node-redis 6 looks for the new master 5 s after its first reconnection attempt, and node-redis 5
 * never does (only a MOVED reply makes it look; a dead node sends none), so a third of the tenants
 * renew no more. Spread them into `createCluster({ rootNodes, ...redisClusterOptions })`. Measured on a
 * real cluster (3 masters, a replica each, node timeout 2 s): every tenant renewed again 0.5 to 2.2 s
 * after the promotion (test/failover.test.ts).
 */
export const redisClusterOptions = {
  /** Look for the new topology half a second after a node's connection is lost. */
  topologyRefreshOnReconnectionAttemptStrategy: 500,
} as const;

/** The range of each numeric option, inclusive. */
export const redisStoreLimits = {
  // At least twice the access token's five minutes: a set in use is renewed long before it expires.
  setTtlMs: [600_000, 365 * 24 * 3_600_000],
  // Bounded above too: a TTL of hours would let a crashed holder block renewals that long, and a
  // timeout past the platform's timer range would fire at once.
  lockTtlMs: [30, 3_600_000],
  lockTimeoutMs: [0, 3_600_000],
  commandTimeoutMs: [10, 60_000],
} as const;

/** The keys and channel of one tenant's store. */
export interface RedisNames {
  tokens: string;
  lock: string;
  /** Where a released lock is announced. */
  released: string;
}

/**
 * One tenant's names. The tenant sits in a Redis Cluster hash tag (`{…}`), so its set, its lock and
 * its channel hash to one slot: the scripts that read one and write the other run on one node.
 */
export function redisNames(tenant: string, prefix: string = redisStoreDefaults.prefix): RedisNames {
  // By the rules redisStore() holds its options to: names it could never have made are refused.
  const base = `${requirePrefix(prefix)}:{${requireTenant(tenant)}}`;
  return { tokens: `${base}:tokens`, lock: `${base}:lock`, released: `${base}:released` };
}

/** The tenant, by the auth package's rule; a missing one is told that a store serves one tenant. */
export function requireTenant(value: unknown): string {
  if (value === undefined) {
    throw invalidOptions(
      "redisStore() needs the tenant whose token set it holds: redisStore({ client, tenant: customerId }), one store per tenant",
    );
  }
  return requireTenantId(value);
}

// Braces would end or open the hash tag that keeps a tenant's keys in one slot; spaces and control
// characters make keys that redis-cli and logs print ambiguously.
const PREFIX_PATTERN = /^[^\s{}\p{Cc}]{1,200}$/u;

export function requirePrefix(value: unknown): string {
  if (value === undefined) {
    return redisStoreDefaults.prefix;
  }
  if (typeof value !== "string" || !PREFIX_PATTERN.test(value)) {
    throw invalidOptions(
      "prefix must be 1 to 200 characters without braces, spaces or control characters (the tenant's {hash tag} follows it)",
    );
  }
  return value;
}
