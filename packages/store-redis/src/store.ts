import {
  fromStored,
  integer,
  invalidOptions,
  lockingRules,
  MAX_SEQUENCE,
  optionsOf,
  refuseUnknown,
  sequenceOf,
  storeFailed,
  type TokenSet,
  type TokenStore,
} from "@engage-voice/auth/store-kit";
import { bounded } from "./bounded.js";
import type { RedisLike } from "./client.js";
import { withRedisLock } from "./lock.js";
import { redisNames, redisStoreDefaults, redisStoreLimits, requirePrefix, requireTenant } from "./options.js";
import { type RedisSubscriber, releaseSignal } from "./released.js";
import { script } from "./scripts.js";

export interface RedisStoreOptions {
  /** A connected client: node-redis v5's `createClient()` fits as it is. */
  client: RedisLike;
  /**
   * The tenant (customer) whose token set this store holds: its keys are
   * `<prefix>:{<tenant>}:tokens` and `<prefix>:{<tenant>}:lock`. A manager given the store takes it
   * as its tenant. 1 to 100 letters, digits, `.`, `_` or `-`, starting with a letter or digit.
   */
  tenant: string;
  /** What the keys start with. Default `"engage-voice"`; no braces, spaces or control characters. */
  prefix?: string;
  /**
   * The token set expires this long after its last write (each renewal writes it), so the sets of
   * tenants nobody serves any more leave Redis. Default 7 days (10 minutes to 365 days).
   */
  setTtlMs?: number;
  /**
   * A second connection, for SUBSCRIBE: `await client.duplicate().connect()`. With it, a renewal that
   * waits for the lock tries again as soon as the holder releases it (announced on the tenant's
   * channel) instead of sleeping out its backoff. One subscriber serves any number of stores.
   */
  subscriber?: RedisSubscriber;
  /**
   * The lock's time to live. The holder extends it every third of this while it renews, so only a
   * holder that crashed (or stalled that long) loses it, and a crashed holder blocks its tenant at
   * most this long. Default 4 000 ms.
   */
  lockTtlMs?: number;
  /**
   * How long a renewal waits for the lock before it fails with `store_failed` (its peek at the set
   * before the lock waits at most this, or `commandTimeoutMs` if shorter). Default 120 000 ms.
   */
  lockTimeoutMs?: number;
  /**
   * How long any one Redis command may take before it fails with `store_failed`: a client whose server
   * is down queues commands until it is back, which must not hold a renewal. Default 5 000 ms.
   */
  commandTimeoutMs?: number;
}

const KNOWN = [
  "client",
  "subscriber",
  "tenant",
  "prefix",
  "setTtlMs",
  "lockTtlMs",
  "lockTimeoutMs",
  "commandTimeoutMs",
] as const;

const within = (name: keyof typeof redisStoreLimits, value: unknown) => {
  const [least, most] = redisStoreLimits[name];
  return integer(name, value, redisStoreDefaults[name], least, most);
};

function check(options: RedisStoreOptions) {
  if (typeof options !== "object" || options === null) {
    throw invalidOptions("redisStore() needs { client, tenant }");
  }
  const given = optionsOf(options, "redisStore()", true);
  refuseUnknown(given, KNOWN, "redisStore()");
  const { client } = given;
  const methods = ["get", "set", "del", "eval", "evalSha"] as const;
  if (typeof client !== "object" || client === null || methods.some((m) => typeof client[m] !== "function")) {
    throw invalidOptions(
      "redisStore() needs a Redis client with get, set, del, eval and evalSha (node-redis v5 fits)",
    );
  }
  const { subscriber } = given;
  if (
    subscriber !== undefined &&
    (typeof subscriber !== "object" || subscriber === null || typeof subscriber.subscribe !== "function")
  ) {
    throw invalidOptions(
      "subscriber must be a connected second client for SUBSCRIBE: await client.duplicate().connect()",
    );
  }
  if (subscriber !== undefined && (subscriber as unknown) === client) {
    throw invalidOptions(
      "subscriber must be another connection than client (a subscribed connection sends no other command): await client.duplicate().connect()",
    );
  }
  return {
    client,
    subscriber,
    tenant: requireTenant(given.tenant),
    prefix: requirePrefix(given.prefix),
    setTtlMs: within("setTtlMs", given.setTtlMs),
    lockTtlMs: within("lockTtlMs", given.lockTtlMs),
    lockTimeoutMs: within("lockTimeoutMs", given.lockTimeoutMs),
    commandTimeoutMs: within("commandTimeoutMs", given.commandTimeoutMs),
  };
}

/**
 * The most a stored token set may weigh, in bytes of JSON: one this SDK wrote is a few kilobytes. A
 * larger value is not sent by Redis nor parsed here (a stray 40 MB value cost 121 MB to parse).
 */
export const STORED_SET_MAX_BYTES = 65_536;

// GET, bounded: a value past ARGV[1] bytes stays in Redis, and the answer says how long it is.
const READ = script(`
local value = redis.call("get", KEYS[1])
if value and string.len(value) > tonumber(ARGV[1]) then
  return {string.len(value)}
end
return value`);

/** The stored JSON as a token set (printing itself redacted), or `undefined` when it is not one. */
function parse(text: unknown): TokenSet | undefined {
  if (typeof text !== "string") {
    return undefined;
  }
  try {
    return fromStored(JSON.parse(text));
  } catch {
    return undefined;
  }
}

const failed = storeFailed;

// Compare-and-set in one atomic script: a set never replaces a stored one of a higher `sequence`,
// or of the same one with another access token (a later renewal's), so a holder that lost its lock
// while frozen cannot overwrite the good set with one whose refresh token was revoked meanwhile.
// The stored value is judged as fromStored() reads it: what is not a token set counts as absent and
// is replaced (the set being written may hold the only valid refresh token), and a missing or
// malformed sequence counts as 0. Each write sets the expiry anew: only a set nobody renews expires.
export const SET_IF_NEWER = script(`
local current = redis.call("get", KEYS[1])
if current then
  local ok, stored = pcall(cjson.decode, current)
  if ok and type(stored) == "table" and type(stored.accessToken) == "string" and stored.accessToken ~= ""
    and type(stored.expiresAt) == "number" and type(stored.obtainedAt) == "number"
    and (stored.refreshToken == nil or type(stored.refreshToken) == "string") then
    local sequence = stored.sequence
    if type(sequence) ~= "number" or sequence < 0 or sequence > tonumber(ARGV[5])
      or sequence ~= math.floor(sequence) then
      sequence = 0
    end
    local incoming = tonumber(ARGV[2])
    if sequence > incoming or (sequence == incoming and stored.accessToken ~= ARGV[3]) then
      return 0
    end
  end
end
redis.call("set", KEYS[1], ARGV[1], "PX", ARGV[4])
return 1`);

/** A store of one tenant's token set: the manager reads its tenant from it. */
export interface RedisTokenStore extends TokenStore {
  readonly tenant: string;
}

/**
 * One tenant's token set in Redis, shared by token managers in any number of processes or machines.
 * Renewals run under a Redis lock (`<prefix>:{<tenant>}:lock`), one at a time; each reads the newest
 * set first, so an expiry seen by all of them costs one refresh and no refresh token is spent twice.
 * A manager peeks at the set before it asks for the lock: a set another process has just renewed
 * costs one GET, no lock.
 */
export function redisStore(options: RedisStoreOptions): RedisTokenStore {
  const {
    client: given,
    subscriber,
    tenant,
    prefix,
    setTtlMs,
    lockTtlMs,
    lockTimeoutMs,
    commandTimeoutMs,
  } = check(options);
  const client = bounded(given, commandTimeoutMs);
  const { tokens: key, lock: lockKey, released: channel } = redisNames(tenant, prefix);
  const released = subscriber && releaseSignal(subscriber, channel, client.within);
  async function read(ms: number): Promise<TokenSet | undefined> {
    let text: unknown;
    try {
      text = await client.run(READ, { keys: [key], arguments: [String(STORED_SET_MAX_BYTES)] }, ms);
    } catch (error) {
      throw failed("The token set could not be read from Redis", error);
    }
    if (Array.isArray(text)) {
      throw failed(
        `The value at ${key} is ${Number(text[0])} bytes, more than a token set can be (${STORED_SET_MAX_BYTES}): not read. Something else wrote that key; delete it (or call logout()) and the manager exchanges again`,
      );
    }
    // Anything that is not a token set counts as empty: the manager then starts over and overwrites it.
    return parse(text);
  }
  return {
    tenant,
    get: () => read(commandTimeoutMs),
    // Before the lock, within the lock's own deadline at most: a renewal that finds Redis frozen
    // fails no later than it would have at the lock, plus this.
    peek: () => read(Math.min(commandTimeoutMs, lockTimeoutMs)),
    async set(tokens) {
      let written: unknown;
      try {
        // A TokenSet turns itself into redacted JSON: its copied fields are what is stored.
        written = await client.run(SET_IF_NEWER, {
          keys: [key],
          arguments: [
            JSON.stringify({ ...tokens }),
            String(sequenceOf((tokens as { sequence?: unknown }).sequence)),
            tokens.accessToken,
            String(setTtlMs),
            String(MAX_SEQUENCE),
          ],
        });
      } catch (error) {
        throw failed("The token set could not be written to Redis", error);
      }
      // Never silent: the manager keeps its set in memory and says the store has a newer one.
      if (written !== 1) {
        throw failed(
          "The token set was not written to Redis: the stored one is newer (another process renewed meanwhile)",
        );
      }
    },
    async clear() {
      try {
        await client.del(key);
      } catch (error) {
        throw failed("The token set could not be deleted from Redis", error);
      }
    },
    lock: (task) =>
      withRedisLock(client, lockKey, { lockTtlMs, lockTimeoutMs, commandTimeoutMs, channel, released }, task),
    // The rules a manager follows under that lock (the lock checked before each token call, the
    // refresh marked in flight): a store with a lock carries them.
    lockingRules,
    close: async () => {
      await released?.close();
    },
  };
}
