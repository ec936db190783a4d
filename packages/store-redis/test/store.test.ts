import { inspect } from "node:util";
import type { TokenSet } from "@engage-voice/auth";
import { describe, expect, it } from "vitest";
import { type RedisLike, redisStore } from "../src/index.js";
import { connect, freshKey } from "./helpers.js";

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
    const key = freshKey();
    const store = redisStore({ client: redis, key });
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

  it("uses engage-voice:tokens by default", async () => {
    const redis = await connect();
    const store = redisStore({ client: redis });
    await store.set(sample(2));
    expect(JSON.parse((await redis.get("engage-voice:tokens")) ?? "").accessToken).toBe("access-2");
    await store.clear();
    expect(await redis.exists("engage-voice:tokens")).toBe(0);
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
    const key = freshKey();
    await redis.set(key, stored);
    expect(await redisStore({ client: redis, key }).get()).toBeUndefined();
  });

  it("fails typed when the key holds another Redis type, without quoting Redis", async () => {
    const redis = await connect();
    const key = freshKey();
    await redis.hSet(key, "accessToken", "secret-access");
    // GET on a hash is a WRONGTYPE error from Redis: a typed store_failed, which the manager logs and survives.
    await expect(redisStore({ client: redis, key }).get()).rejects.toMatchObject({
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
    };
    const store = redisStore({ client: broken, lockTimeoutMs: 0 });
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
    ["no options", undefined, /needs \{ client \}/],
    ["no client", { client: undefined }, /Redis client with get, set, del and eval/],
    ["a client without eval", { client: { get() {}, set() {}, del() {} } }, /Redis client/],
    ["an empty key", { key: "" }, /key must be a non-empty string/],
    ["a fractional TTL", { lockTtlMs: 1.5 }, /lockTtlMs must be an integer from 30 to 3600000/],
    ["a tiny TTL", { lockTtlMs: 3 }, /lockTtlMs/],
    ["a negative timeout", { lockTimeoutMs: -1 }, /lockTimeoutMs must be an integer from 0 to 3600000/],
    ["a TTL that would make the heartbeat spin or block for days", { lockTtlMs: 3e10 }, /lockTtlMs/],
    ["a timeout that is not a number", { lockTimeoutMs: Number.NaN }, /lockTimeoutMs/],
    ["a timeout past an hour", { lockTimeoutMs: 3_600_001 }, /lockTimeoutMs/],
    ["an endless timeout", { lockTimeoutMs: Number.POSITIVE_INFINITY }, /lockTimeoutMs/],
    ["a key that is not a string", { key: 42 }, /key must be a non-empty string/],
    [
      "a command timeout too short to answer",
      { commandTimeoutMs: 5 },
      /commandTimeoutMs must be an integer from 10 to 60000/,
    ],
    ["a command timeout past a minute", { commandTimeoutMs: 60_001 }, /commandTimeoutMs/],
    ["a fractional command timeout", { commandTimeoutMs: 100.5 }, /commandTimeoutMs/],
    [
      "a misspelt option",
      { lockTTLMs: 5_000 },
      /redisStore\(\) has no option "lockTTLMs": did you mean lockTtlMs\?/,
    ],
  ])("refuses %s with invalid_options", async (_, options, message) => {
    const redis = await connect();
    const given =
      options === undefined ? undefined : "client" in options ? options : { client: redis, ...options };
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
      { lockTtlMs: 30, lockTimeoutMs: 0, commandTimeoutMs: 10 },
      { lockTtlMs: 3_600_000, lockTimeoutMs: 3_600_000, commandTimeoutMs: 60_000 },
    ]) {
      expect(typeof redisStore({ client, ...options }).lock).toBe("function");
    }
  });
});
