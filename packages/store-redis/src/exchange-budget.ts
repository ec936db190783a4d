import {
  type ExchangeBudget,
  exchangeLimitDefaults,
  integer,
  invalidOptions,
  optionsOf,
  refuseUnknown,
  requireTenant,
  storeFailed,
} from "@engage-voice/auth/store-kit";
import { bounded } from "./bounded.js";
import type { RedisLike } from "./client.js";
import { redisStoreDefaults, redisStoreLimits, requirePrefix } from "./options.js";
import { script } from "./scripts.js";

export interface RedisExchangeBudgetOptions {
  /** A connected client (node-redis v5's `createClient()` or `createCluster()`); the stores' own fits. */
  client: RedisLike;
  /** Exchanges a minute for every process on this budget together, 1 to 100 000. */
  perMinute: number;
  /**
   * The budget's name, when one Redis holds several (one per parent-platform account, say): letters,
   * digits, `.`, `_` or `-`. Default `"exchanges"`.
   */
  name?: string;
  /** What the keys start with, as `redisStore`'s. Default `"engage-voice"`. */
  prefix?: string;
  /** How long one Redis command may take before the take fails with `store_failed`. Default 5 000 ms. */
  commandTimeoutMs?: number;
  /**
   * The time the minute is counted by. Default: the Redis server's (`TIME`), one clock for every
   * process whatever theirs say; a clock given here (a test's) is used instead.
   */
  clock?: { now(): number };
}

const KNOWN = ["client", "perMinute", "name", "prefix", "commandTimeoutMs", "clock"] as const;

// Both scripts' time: the clock's given in ARGV[1], else the Redis server's (TIME), in ms.
const NOW = `
local now = tonumber(ARGV[1])
if now == nil then
  local time = redis.call("time")
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end`;

// The window of the last minute's exchanges (a sorted set scored by time) and the time until which a
// 429 stops them all, under one hash tag so that both are in one slot of a cluster. Returns 0 with a
// slot taken, or how long to wait. Time is the server's unless a clock's is given (ARGV[1]); the
// window is the minute and the margin (the service counts from each exchange's arrival).
const TAKE = script(`
${NOW}
local windowMs = tonumber(ARGV[3])
local blockedUntil = tonumber(redis.call("get", KEYS[2]) or "0") or 0
if blockedUntil > now then
  return blockedUntil - now
end
redis.call("zremrangebyscore", KEYS[1], "-inf", now - windowMs)
if redis.call("zcard", KEYS[1]) < tonumber(ARGV[2]) then
  redis.call("zadd", KEYS[1], now, ARGV[4])
  redis.call("pexpire", KEYS[1], windowMs)
  return 0
end
local oldest = redis.call("zrange", KEYS[1], 0, 0, "WITHSCORES")
return math.max(1, tonumber(oldest[2]) + windowMs - now)`);

// A later Retry-After wins over an earlier one; the key goes once it has passed.
const BLOCK = script(`
${NOW}
local untilMs = now + tonumber(ARGV[2])
local current = tonumber(redis.call("get", KEYS[1]) or "0") or 0
if untilMs > current then
  redis.call("set", KEYS[1], tostring(untilMs), "PX", ARGV[2])
end
return 1`);

/** The keys of one budget: `<prefix>:{budget:<name>}:window` and `…:blocked`. */
export function budgetKeys(name: string, prefix: string = redisStoreDefaults.prefix) {
  const base = `${prefix}:{budget:${name}}`;
  return { window: `${base}:window`, blocked: `${base}:blocked` };
}

/**
 * One token-exchange budget for every process on this Redis: a tenant pool given it
 * (`createTenantPool({ exchangeBudget })`) spends `perMinute` exchanges a minute together with every
 * other pool on the budget, and a `429` one of them is answered stops them all until its
 * `Retry-After` (at most `exchangeLimitDefaults.maxBlockMs`). A take never waits: it takes a slot or
 * says how long until the next, and the renewal waits outside its store's lock. The minute is counted
 * on the Redis server's clock. When Redis does not answer, no exchange is made: the take fails with
 * `store_failed`, as a renewal does whose store cannot be read.
 */
export function redisExchangeBudget(options: RedisExchangeBudgetOptions): ExchangeBudget {
  if (typeof options !== "object" || options === null) {
    throw invalidOptions("redisExchangeBudget() needs { client, perMinute }");
  }
  const given = optionsOf(options, "redisExchangeBudget()", true);
  refuseUnknown(given, KNOWN, "redisExchangeBudget()");
  const { client } = given;
  if (typeof client !== "object" || client === null || typeof client.evalSha !== "function") {
    throw invalidOptions("redisExchangeBudget() needs a connected Redis client (node-redis v5 fits)");
  }
  if (given.perMinute === undefined) {
    throw invalidOptions(
      `redisExchangeBudget() needs perMinute: the exchanges a minute for all processes together (the service's observed limit is ${exchangeLimitDefaults.perMinute} per user)`,
    );
  }
  const perMinute = integer("perMinute", given.perMinute, 0, 1, 100_000);
  // A tenant id's rule: the name, like a tenant, sits in a hash tag of the keys.
  const name = requireTenant(given.name ?? "exchanges", "name");
  const [least, most] = redisStoreLimits.commandTimeoutMs;
  const commandTimeoutMs = integer(
    "commandTimeoutMs",
    given.commandTimeoutMs,
    redisStoreDefaults.commandTimeoutMs,
    least,
    most,
  );
  const clock = given.clock;
  if (clock !== undefined && typeof clock?.now !== "function") {
    throw invalidOptions("clock must have now(), or be left out for the Redis server's time");
  }
  const now = () => (clock ? String(Math.round(clock.now())) : "server");
  const { windowMs, marginMs, maxBlockMs } = exchangeLimitDefaults;
  const redis = bounded(client, commandTimeoutMs);
  const keys = budgetKeys(name, requirePrefix(given.prefix));
  let taken = 0;
  const take = async () => {
    let answer: unknown;
    try {
      answer = await redis.run(TAKE, {
        keys: [keys.window, keys.blocked],
        arguments: [
          now(),
          String(perMinute),
          String(windowMs + marginMs),
          `${crypto.randomUUID()}-${taken++}`,
        ],
      });
    } catch (error) {
      throw storeFailed("The exchange budget could not be read from Redis: no exchange was made", error);
    }
    const ms = Number(answer);
    if (!Number.isSafeInteger(ms) || ms < 0) {
      // Never taken as a slot: a budget that cannot be read makes no exchange.
      throw storeFailed("The exchange budget in Redis answered something else than a wait");
    }
    return ms;
  };
  return {
    take,
    async blockFor(retryAfterMs) {
      const ms = Math.min(maxBlockMs, Math.max(1, Math.ceil(retryAfterMs)));
      try {
        await redis.run(BLOCK, { keys: [keys.blocked], arguments: [now(), String(ms)] });
      } catch (error) {
        throw storeFailed("The exchange budget in Redis could not be told of a 429", error);
      }
    },
  };
}
