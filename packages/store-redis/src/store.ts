import { EngageVoiceAuthError, fromStored, type TokenSet, type TokenStore } from "@engage-voice/auth";
import type { RedisLike } from "./client.js";
import { withRedisLock } from "./lock.js";

export interface RedisStoreOptions {
  /** A connected client: node-redis v5's `createClient()` fits as it is. */
  client: RedisLike;
  /** Where the token set lives; the lock is `<key>:lock`. Default `"engage-voice:tokens"`. */
  key?: string;
  /**
   * The lock's time to live. The holder extends it every third of this while it renews, so only a
   * holder that crashed (or stalled that long) loses it. Default 15 000 ms.
   */
  lockTtlMs?: number;
  /** How long a renewal waits for the lock before it fails with `store_failed`. Default 120 000 ms. */
  lockTimeoutMs?: number;
}

const invalid = (message: string) => new EngageVoiceAuthError("invalid_options", message);

function check(options: RedisStoreOptions): Required<RedisStoreOptions> {
  if (typeof options !== "object" || options === null) throw invalid("redisStore() needs { client }");
  const { client, key = "engage-voice:tokens", lockTtlMs = 15_000, lockTimeoutMs = 120_000 } = options;
  const methods = ["get", "set", "del", "eval"] as const;
  if (typeof client !== "object" || client === null || methods.some((m) => typeof client[m] !== "function")) {
    throw invalid("redisStore() needs a Redis client with get, set, del and eval (node-redis v5 fits)");
  }
  if (typeof key !== "string" || key === "") throw invalid("key must be a non-empty string");
  if (!Number.isInteger(lockTtlMs) || lockTtlMs < 30)
    throw invalid("lockTtlMs must be an integer of at least 30");
  if (!Number.isInteger(lockTimeoutMs) || lockTimeoutMs < 0) {
    throw invalid("lockTimeoutMs must be an integer of at least 0");
  }
  return { client, key, lockTtlMs, lockTimeoutMs };
}

/** The stored JSON as a token set (printing itself redacted), or `undefined` when it is not one. */
function parse(text: unknown): TokenSet | undefined {
  if (typeof text !== "string") return undefined;
  try {
    return fromStored(JSON.parse(text));
  } catch {
    return undefined;
  }
}

const failed = (message: string, cause: unknown) =>
  new EngageVoiceAuthError("store_failed", message, { cause });

/**
 * A token store in one Redis key, shared by token managers in any number of processes or machines.
 * Renewals run under a Redis lock (`<key>:lock`), one at a time; each reads the newest set first, so
 * an expiry seen by all of them costs one refresh and no refresh token is spent twice.
 */
export function redisStore(options: RedisStoreOptions): TokenStore {
  const { client, key, lockTtlMs, lockTimeoutMs } = check(options);
  const lockKey = `${key}:lock`;
  return {
    async get() {
      let text: unknown;
      try {
        text = await client.get(key);
      } catch (error) {
        throw failed("The token set could not be read from Redis", error);
      }
      // Anything that is not a token set counts as empty: the manager then starts over and overwrites it.
      return parse(text);
    },
    async set(tokens) {
      try {
        // A TokenSet turns itself into redacted JSON: its copied fields are what is stored.
        await client.set(key, JSON.stringify({ ...tokens }));
      } catch (error) {
        throw failed("The token set could not be written to Redis", error);
      }
    },
    async clear() {
      try {
        await client.del(key);
      } catch (error) {
        throw failed("The token set could not be deleted from Redis", error);
      }
    },
    lock: (task) => withRedisLock(client, lockKey, { lockTtlMs, lockTimeoutMs }, task),
  };
}
