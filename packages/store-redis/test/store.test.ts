import { inspect } from "node:util";
import type { TokenSet } from "@engage-voice/auth";
import { describe, expect, it } from "vitest";
import {
  type RedisLike,
  redisNames,
  redisStore,
  redisStoreDefaults,
  redisStoreLimits,
  STORED_SET_MAX_BYTES,
} from "../src/index.js";
import { connect, freshTenant, type Redis } from "./helpers.js";

/** What a manager hands to `set`: a token set that prints itself redacted, like TokenSet does. */
const sample = (n: number): TokenSet =>
  Object.assign(
    Object.create({
      toJSON: () => ({ accessToken: "[redacted]" }),
    }),
    {
      accessToken: `access-${n}`,
      refreshToken: `refresh-${n}`,
      tokenType: "Bearer",
      expiresAt: 300_000 + n,
      obtainedAt: n,
      agentDetails: [{ accountId: "1" }],
    },
  );

describe("redisStore", () => {
  it("writes the token fields as JSON, reads them back redacted in print, and clears them", async () => {
    const redis = await connect();
    const { tenant, tokens: key } = freshTenant();
    const store = redisStore({ client: redis, tenant });
    expect(store.tenant).toBe(tenant);
    expect(await store.get()).toBeUndefined();
    await store.set(sample(1));
    expect(JSON.parse((await redis.get(key)) ?? "")).toEqual({
      accessToken: "access-1",
      refreshToken: "refresh-1",
      tokenType: "Bearer",
      expiresAt: 300_001,
      obtainedAt: 1,
      agentDetails: [{ accountId: "1" }],
    });
    const read = await store.get();
    expect(read).toMatchObject({ accessToken: "access-1", refreshToken: "refresh-1", expiresAt: 300_001 });
    for (const printed of [JSON.stringify(read), String(read), inspect(read)]) {
      expect(printed).not.toContain("access-1");
      expect(printed).not.toContain("refresh-1");
    }
    expect(JSON.stringify({ ...read })).toContain("refresh-1"); // a copy holds the fields, as a TokenSet's does
    await store.clear();
    expect(await redis.exists(key)).toBe(0);
    expect(await store.get()).toBeUndefined();
    await store.clear();
  });

  it("keeps each tenant's set and lock under its own hash-tagged keys, with the default prefix or another", async () => {
    const redis = await connect();
    const { tenant } = freshTenant();
    const stores = [
      [redisStore({ client: redis, tenant }), `engage-voice:{${tenant}}`],
      [redisStore({ client: redis, tenant, prefix: "app:ev" }), `app:ev:{${tenant}}`],
      [redisStore({ client: redis, tenant: `${tenant}.b` }), `engage-voice:{${tenant}.b}`],
    ] as const;
    for (const [store, base] of stores) {
      const seen = await store.lock?.(async () => redis.exists(`${base}:lock`));
      expect(seen).toBe(1);
    }
    for (const [[store, base], n] of stores.map((entry, n) => [entry, n] as const)) {
      await store.set(sample(n));
      expect(JSON.parse((await redis.get(`${base}:tokens`)) ?? "").accessToken).toBe(`access-${n}`);
    }
    for (const [[store], n] of stores.map((entry, n) => [entry, n] as const)) {
      expect((await store.get())?.accessToken).toBe(`access-${n}`);
      await store.clear();
    }
    expect(await redis.exists(stores.map(([, base]) => `${base}:tokens`))).toBe(0);
  });

  it("writes the set with an expiry, set anew by every write, so that only a set nobody renews expires", async () => {
    const redis = await connect();
    const { tenant, tokens: key } = freshTenant();
    const store = redisStore({ client: redis, tenant });
    const { setTtlMs } = redisStoreDefaults;
    await store.set(sample(1));
    // PTTL only counts down from what was set; a minute of slack is a hang guard, not a timing verdict.
    expect(await redis.pTTL(key)).toBeGreaterThan(setTtlMs - 60_000);
    expect(await redis.pTTL(key)).toBeLessThanOrEqual(setTtlMs);
    await redis.pExpire(key, 60_000);
    await store.set(sample(1)); // the same set written again, as the in-flight mark's put-back is
    expect(await redis.pTTL(key)).toBeGreaterThan(setTtlMs - 60_000);
    const [least] = redisStoreLimits.setTtlMs;
    await redisStore({ client: redis, tenant, setTtlMs: least }).set(sample(1));
    expect(await redis.pTTL(key)).toBeLessThanOrEqual(least);
    expect(await redis.pTTL(key)).toBeGreaterThan(least - 60_000);
  });

  it.each([
    ["not JSON", "{ not json"],
    ["JSON null", "null"],
    ["a number", "42"],
    ["no access token", JSON.stringify({ expiresAt: 1, obtainedAt: 1 })],
    ["an empty access token", JSON.stringify({ accessToken: "", expiresAt: 1, obtainedAt: 1 })],
    ["a numeric access token", JSON.stringify({ accessToken: 1, expiresAt: 1, obtainedAt: 1 })],
    ["no expiry", JSON.stringify({ accessToken: "a", obtainedAt: 1 })],
    ["a string expiry", JSON.stringify({ accessToken: "a", expiresAt: "1", obtainedAt: 1 })],
    [
      "a numeric refresh token",
      JSON.stringify({ accessToken: "a", refreshToken: 2, expiresAt: 1, obtainedAt: 1 }),
    ],
  ])("reads %s as empty", async (_, stored) => {
    const redis = await connect();
    const { tenant, tokens: key } = freshTenant();
    await redis.set(key, stored);
    expect(await redisStore({ client: redis, tenant }).get()).toBeUndefined();
  });

  it("fails typed when the key holds another Redis type, without quoting Redis", async () => {
    const redis = await connect();
    const { tenant, tokens: key } = freshTenant();
    await redis.hSet(key, "accessToken", "secret-access");
    // GET on a hash is a WRONGTYPE error from Redis: a typed store_failed, which the manager logs and survives.
    await expect(redisStore({ client: redis, tenant }).get()).rejects.toMatchObject({
      name: "EngageVoiceAuthError",
      code: "store_failed",
      message: "The token set could not be read from Redis",
    });
  });

  it("reports a failing client with store_failed and without the client's message", async () => {
    const secret = "refresh-SECRET-123";
    const broken: RedisLike = {
      get: async () => {
        throw new Error(`connection lost while sending ${secret}`);
      },
      set: async () => {
        throw new Error(`connection lost while sending ${secret}`);
      },
      del: async () => {
        throw new Error(`connection lost while sending ${secret}`);
      },
      eval: async () => {
        throw new Error(`connection lost while sending ${secret}`);
      },
      evalSha: async () => {
        throw new Error(`connection lost while sending ${secret}`);
      },
    };
    const store = redisStore({ client: broken, tenant: "acme", lockTimeoutMs: 0 });
    const errors = await Promise.all([
      store.get().catch((e: unknown) => e),
      store.set(sample(3)).catch((e: unknown) => e),
      store.clear().catch((e: unknown) => e),
      store.lock?.(async () => "ran").catch((e: unknown) => e),
    ]);
    for (const error of errors) {
      expect(error).toMatchObject({ code: "store_failed" });
      expect(inspect(error)).not.toContain(secret);
      expect(JSON.stringify(error)).not.toContain(secret);
    }
  });

  it.each([
    ["no options", undefined, /needs \{ client, tenant \}/],
    ["no client", { client: undefined, tenant: "acme" }, /Redis client with get, set, del, eval and evalSha/],
    [
      "a client without eval",
      { client: { get() {}, set() {}, del() {}, evalSha() {} }, tenant: "acme" },
      /Redis client/,
    ],
    [
      "a client without evalSha",
      { client: { get() {}, set() {}, del() {}, eval() {} }, tenant: "acme" },
      /evalSha/,
    ],
    [
      "no tenant",
      { tenant: undefined },
      /needs the tenant whose token set it holds: redisStore\(\{ client, tenant/,
    ],
    ["an empty tenant", { tenant: "" }, /tenant must be 1 to 100 letters, digits/],
    ["a tenant with braces", { tenant: "a}b" }, /tenant must be/],
    ["a tenant with a colon", { tenant: "a:b" }, /tenant must be/],
    ["a tenant starting with a dot", { tenant: ".a" }, /tenant must be/],
    ["a tenant of 101 characters", { tenant: "a".repeat(101) }, /tenant must be/],
    ["a tenant that is not a string", { tenant: 42 }, /tenant must be/],
    ["an empty prefix", { prefix: "" }, /prefix must be 1 to 200 characters without braces/],
    ["a prefix with a brace", { prefix: "ev{x" }, /prefix must be/],
    ["a prefix with a space", { prefix: "ev x" }, /prefix must be/],
    ["a prefix with a control character", { prefix: "ev\u0000" }, /prefix must be/],
    ["a subscriber without subscribe", { subscriber: {} }, /subscriber must be a connected second client/],
    ["the client as its own subscriber", "same", /subscriber must be another connection than client/],
    ["a key (tenant and prefix name it)", { key: "x" }, /has no option "key"/],
    ["a fractional TTL", { lockTtlMs: 1.5 }, /lockTtlMs must be an integer from 30 to 3600000/],
    ["a tiny TTL", { lockTtlMs: 3 }, /lockTtlMs/],
    ["a negative timeout", { lockTimeoutMs: -1 }, /lockTimeoutMs must be an integer from 0 to 3600000/],
    ["a TTL that would make the heartbeat spin or block for days", { lockTtlMs: 3e10 }, /lockTtlMs/],
    ["a timeout that is not a number", { lockTimeoutMs: Number.NaN }, /lockTimeoutMs/],
    ["a timeout past an hour", { lockTimeoutMs: 3_600_001 }, /lockTimeoutMs/],
    ["an endless timeout", { lockTimeoutMs: Number.POSITIVE_INFINITY }, /lockTimeoutMs/],
    [
      "a command timeout too short to answer",
      { commandTimeoutMs: 5 },
      /commandTimeoutMs must be an integer from 10 to 60000/,
    ],
    ["a command timeout past a minute", { commandTimeoutMs: 60_001 }, /commandTimeoutMs/],
    [
      "a set TTL shorter than ten minutes",
      { setTtlMs: 599_999 },
      /setTtlMs must be an integer from 600000 to 31536000000/,
    ],
    ["a set TTL past a year", { setTtlMs: 31_536_000_001 }, /setTtlMs/],
    ["a fractional command timeout", { commandTimeoutMs: 100.5 }, /commandTimeoutMs/],
    [
      "a misspelt option",
      { lockTTLMs: 5_000 },
      /redisStore\(\) has no option "lockTTLMs": did you mean lockTtlMs\?/,
    ],
  ])("refuses %s with invalid_options", async (_, options, message) => {
    const redis = await connect();
    const given =
      options === undefined
        ? undefined
        : typeof options === "string"
          ? { client: redis, tenant: "acme", subscriber: redis }
          : "client" in options
            ? options
            : { client: redis, tenant: "acme", ...options };
    let error: unknown;
    try {
      redisStore(given as never);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ name: "EngageVoiceAuthError", code: "invalid_options" });
    expect((error as Error).message).toMatch(message);
  });

  it("accepts every option at the ends of its range", async () => {
    const client = await connect();
    for (const options of [
      { lockTtlMs: 30, lockTimeoutMs: 0, commandTimeoutMs: 10, tenant: "a", prefix: "x", setTtlMs: 600_000 },
      { tenant: `A${"z".repeat(99)}`, prefix: "é:".repeat(100) },
      { lockTtlMs: 3_600_000, lockTimeoutMs: 3_600_000, commandTimeoutMs: 60_000, setTtlMs: 31_536_000_000 },
    ]) {
      expect(typeof redisStore({ client, tenant: "acme", ...options }).lock).toBe("function");
    }
  });
});

describe("close()", () => {
  /** How many connections are subscribed to `channel` (PUBSUB NUMSUB). */
  const subscribersOf = async (redis: Redis, channel: string) =>
    Number((await redis.sendCommand(["PUBSUB", "NUMSUB", channel]))?.[1 as never] ?? 0);

  it("takes the store's listener off a shared subscriber, so a pool that lets tenants go leaves none", async () => {
    const redis = await connect();
    const subscriber = await redis.duplicate().connect();
    try {
      const { tenant, released } = freshTenant();
      const store = redisStore({ client: redis, tenant, subscriber });
      await store.lock?.(async () => undefined); // the first renewal subscribes
      expect(await subscribersOf(redis, released)).toBe(1);
      await store.close?.();
      expect(await subscribersOf(redis, released)).toBe(0);
      await store.close?.(); // twice is harmless
    } finally {
      await subscriber.close();
    }
  });

  it("of one of two stores of a tenant on one subscriber leaves the other's listener subscribed", async () => {
    const redis = await connect();
    const subscriber = await redis.duplicate().connect();
    try {
      const { tenant, released } = freshTenant();
      const first = redisStore({ client: redis, tenant, subscriber });
      const second = redisStore({ client: redis, tenant, subscriber });
      await first.lock?.(async () => undefined);
      await second.lock?.(async () => undefined);
      await first.close?.();
      expect(await subscribersOf(redis, released)).toBe(1);
      await second.close?.();
      expect(await subscribersOf(redis, released)).toBe(0);
    } finally {
      await subscriber.close();
    }
  });
});

describe("redisNames()", () => {
  it("refuses a prefix or tenant redisStore() refuses, with the same rule", () => {
    expect(() => redisNames("acme", "a{b")).toThrow(/prefix must be/);
    expect(() => redisNames("ac me")).toThrow(/tenant must be/);
    expect(redisNames("acme", "ev").tokens).toBe("ev:{acme}:tokens");
  });
});

describe("a stored value that is not a token set this SDK wrote", () => {
  it("past STORED_SET_MAX_BYTES is neither sent nor parsed: store_failed, naming the key and the fix", async () => {
    const client = await connect();
    const { tenant, tokens: key } = freshTenant();
    await client.set(key, "x".repeat(STORED_SET_MAX_BYTES + 1));
    const store = redisStore({ client, tenant });
    for (const read of [store.get, store.peek]) {
      await expect(read?.()).rejects.toMatchObject({
        code: "store_failed",
        message: expect.stringMatching(
          new RegExp(`${key.replace(/[{}]/g, "\\$&")} is ${STORED_SET_MAX_BYTES + 1} bytes.*delete it`),
        ),
      });
    }
  });
});
