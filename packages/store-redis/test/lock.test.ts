import { describe, expect, it } from "vitest";
import { type RedisLike, redisStore } from "../src/index.js";
import { EXTEND } from "../src/lock.js";
import { connect, freshTenant, pause } from "./helpers.js";

/** Two stores on one key through two connections, as two processes would have. */
async function twoStores(options: { lockTtlMs?: number; lockTimeoutMs?: number } = {}) {
  const { tenant, lock } = freshTenant();
  const [a, b] = await Promise.all([connect(), connect()]);
  return {
    lockKey: lock,
    redis: a,
    a: redisStore({ client: a, tenant, ...options }),
    b: redisStore({ client: b, tenant, ...options }),
  };
}

describe("redisStore lock", () => {
  it("runs concurrent tasks strictly one after another, and removes the lock after", async () => {
    const { a, b, redis, lockKey } = await twoStores();
    const order: string[] = [];
    const task = (name: string) => async () => {
      order.push(`enter ${name}`);
      // Several round trips to Redis while holding the lock: room for the other task to break in.
      for (let i = 0; i < 5; i++) {
        await redis.ping();
      }
      await pause(20);
      order.push(`exit ${name}`);
      return name;
    };
    const results = await Promise.all([
      a.lock?.(task("a1")),
      b.lock?.(task("b1")),
      a.lock?.(task("a2")),
      b.lock?.(task("b2")),
    ]);
    expect(results).toEqual(["a1", "b1", "a2", "b2"]);
    expect(order).toHaveLength(8);
    for (let i = 0; i < 8; i += 2) {
      const name = order[i]?.replace("enter ", "");
      expect(order[i + 1]).toBe(`exit ${name}`);
    }
    expect(await redis.exists(lockKey)).toBe(0);
  });

  it("waits for a lock held by someone else, then fails with store_failed", async () => {
    const { a, redis, lockKey } = await twoStores({ lockTimeoutMs: 300 });
    await redis.set(lockKey, "another-holder", { expiration: { type: "PX", value: 60_000 } });
    let ran = false;
    const error = await a
      .lock?.(async () => {
        ran = true;
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: "EngageVoiceAuthError",
      code: "store_failed",
      message: "The Redis lock of the token set stayed taken for 300 ms",
    });
    expect(ran).toBe(false);
    expect(await redis.get(lockKey)).toBe("another-holder");
  });

  it("takes a lock whose holder crashed once its TTL has run out", async () => {
    const { a, redis, lockKey } = await twoStores({ lockTimeoutMs: 10_000 });
    await redis.set(lockKey, "crashed-holder", { expiration: { type: "PX", value: 300 } });
    const held = await a.lock?.(async () => redis.get(lockKey));
    expect(held).toMatch(/^[0-9a-f]{32}$/); // this store's own random value, not the crashed holder's
    expect(await redis.exists(lockKey)).toBe(0);
  });

  it("never deletes a lock that is no longer its own", async () => {
    const { a, redis, lockKey } = await twoStores();
    await a.lock?.(async () => {
      // As if the TTL ran out mid-task and another process took the lock.
      await redis.set(lockKey, "next-holder");
    });
    expect(await redis.get(lockKey)).toBe("next-holder");
  });

  it("releases the lock when the task fails, and passes the failure on", async () => {
    const { a, redis, lockKey } = await twoStores();
    const failure = new Error("renewal failed");
    await expect(
      a.lock?.(async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await redis.exists(lockKey)).toBe(0);
  });

  it("keeps the lock alive past its TTL while the task runs", async () => {
    // A TTL of seconds: the lock is lost only if no extension lands for that long, which a busy
    // machine's stalls do not come near (a TTL of a few hundred ms they could).
    const { a, b, redis, lockKey } = await twoStores({ lockTtlMs: 4_000, lockTimeoutMs: 0 });
    const ours = await a.lock?.(async () => {
      const value = await redis.get(lockKey);
      await pause(6_000); // well past the TTL: only the heartbeat keeps the lock
      // A second store gives up at once (timeout 0) as long as the lock is still held.
      const other = await b.lock?.(async () => "other ran").catch((e: unknown) => e);
      expect(other).toMatchObject({ code: "store_failed" });
      expect(await redis.get(lockKey)).toBe(value);
      return value;
    });
    expect(ours).toMatch(/^[0-9a-f]{32}$/);
    expect(await redis.exists(lockKey)).toBe(0);
  });
});

describe("redisStore lock heartbeat", () => {
  it("sends no new extension while the last one has had no answer", async () => {
    const extendSha = EXTEND.sha();
    let extensions = 0;
    const client: RedisLike = {
      get: async () => null,
      set: async () => "OK",
      del: async () => 0,
      eval: async () => 1,
      // No extension ever gets an answer (only the command deadline would end it); the release does.
      evalSha: async (sha) => {
        if (sha !== (await extendSha)) {
          return 1;
        }
        extensions++;
        return new Promise(() => {});
      },
    };
    const store = redisStore({ client, tenant: "acme", lockTtlMs: 30, commandTimeoutMs: 60_000 });
    // Thirty beats' worth of time with the first extension still unanswered.
    await store.lock?.(() => pause(300));
    expect(extensions).toBe(1);
  });
});
