// Redis outages against a real redis-server that the test kills (SIGKILL), freezes (SIGSTOP) and
// restarts: every renewal ends, as store_failed or with its token kept in memory, and never waits for
// Redis to come back.
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTokenManager, fromStored, type TokenSet, type TokenStore } from "@engage-voice/auth";
import { recordingLogger } from "@engage-voice/test-kit";
import { freePort, startRedis } from "@engage-voice/test-kit/servers";
import { createClient } from "redis";
import { afterEach, describe, expect, it } from "vitest";
import { type RedisLike, redisStore, redisStoreDefaults } from "../src/index.js";
import { freshTenant, pause } from "./helpers.js";
import { BASE, sandboxHosts } from "./hosts.js";

const servers: ChildProcess[] = [];
const clients: { destroy(): void; isOpen: boolean }[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) {
    // A test may have destroyed it already, as the death of its process.
    if (client.isOpen) {
      client.destroy();
    }
  }
  for (const server of servers.splice(0)) {
    server.kill("SIGCONT");
    server.kill("SIGKILL");
  }
});

/**
 * A redis-server of this test's own on a free loopback port, restartable on the same port; with
 * `appendOnlyDir`, a restart loads what it held from its append-only file.
 */
async function ownRedis({ appendOnlyDir }: { appendOnlyDir?: string } = {}) {
  const port = await freePort();
  const start = async () => {
    const { child } = await startRedis({ port, ...(appendOnlyDir ? { appendOnlyDir } : {}) });
    servers.push(child);
    return child;
  };
  let child = await start();
  const client = createClient({ url: `redis://127.0.0.1:${port}` });
  client.on("error", () => {}); // reconnects are expected here
  await client.connect();
  clients.push(client);
  return {
    client,
    url: `redis://127.0.0.1:${port}`,
    kill: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
    freeze: () => child.kill("SIGSTOP"),
    thaw: () => child.kill("SIGCONT"),
    restart: async () => {
      child = await start();
    },
  };
}

/** Which of `promise` and Redis's return settles first: the verdict is an order, not a duration. */
async function settlesBefore<T>(promise: Promise<T>, comeBack: () => Promise<unknown>, afterMs: number) {
  let settled = false;
  const outcome: Promise<{ value?: T; error?: unknown }> = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  void outcome.then(() => {
    settled = true;
  });
  await Promise.race([outcome, pause(afterMs)]);
  const before = settled;
  await comeBack();
  return { before, ...(await outcome) };
}

const toTokenSetForTests = (accessToken: string, refreshToken: string, sequence: number) =>
  fromStored({ accessToken, refreshToken, expiresAt: 2, obtainedAt: 1, sequence }) as TokenSet;

/** The manager's own waits and jitter, as a user's. */
const PLAIN = { sleep: undefined, random: undefined, tenant: undefined };

function managerOn(store: TokenStore) {
  const { server, clock, managerOn } = sandboxHosts();
  const { auth, logs: lines } = managerOn(store, PLAIN);
  return { auth, server, clock, lines };
}

describe("a Redis outage", () => {
  it("Redis killed while idle: the renewal fails with store_failed before Redis is back", async () => {
    const redis = await ownRedis();
    const store = redisStore({
      client: redis.client,
      tenant: freshTenant().tenant,
      lockTimeoutMs: 2_000,
      commandTimeoutMs: 500,
    });
    const { auth, server } = managerOn(store);
    await redis.kill();
    // Until the client notices the dead socket, a command fails at once; after, it waits in the
    // offline queue, which only the command deadlines end. The wait for it to notice is bounded:
    // node-redis 5.9 could stay "ready" on a dead socket (its reconnect reached the killed server's
    // closing listener and was reset; redis/node-redis#3108), and there a command fails at once or
    // waits out its deadline too: the verdict below holds either way.
    for (let waited = 0; redis.client.isReady && waited < 2_000; waited += 20) {
      await pause(20);
    }
    await pause(300);
    const result = await settlesBefore(auth.getAccessToken(), redis.restart, 8_000);
    expect(result.before).toBe(true);
    expect(result.error).toMatchObject({ code: "store_failed" });
    expect(server.tokenCalls()).toBe(0);
  });

  it("Redis frozen (no answer at all): store_failed after lockTimeoutMs, not when it thaws", async () => {
    const redis = await ownRedis();
    const store = redisStore({
      client: redis.client,
      tenant: freshTenant().tenant,
      lockTimeoutMs: 1_000,
      // Longer than the wait for the thaw: only the lock's own deadline can end the try before it.
      commandTimeoutMs: 20_000,
    });
    const { auth } = managerOn(store);
    redis.freeze();
    const result = await settlesBefore(auth.getAccessToken(), async () => redis.thaw(), 8_000);
    expect(result.before).toBe(true);
    expect(result.error).toMatchObject({ code: "store_failed" });
  });

  it("Redis frozen: get, set and clear each fail with store_failed before it thaws", async () => {
    const redis = await ownRedis();
    const store = redisStore({ client: redis.client, tenant: freshTenant().tenant, commandTimeoutMs: 200 });
    redis.freeze();
    const outcomes = Promise.all(
      [store.get(), store.set(toTokenSetForTests("a", "r", 1)), store.clear()].map((command) =>
        command.then(
          () => "answered",
          (error: unknown) => error,
        ),
      ),
    );
    const result = await settlesBefore(outcomes, async () => redis.thaw(), 8_000);
    expect(result.before).toBe(true);
    expect(result.value).toMatchObject([
      { code: "store_failed", message: "The token set could not be read from Redis" },
      { code: "store_failed", message: "The token set could not be written to Redis" },
      { code: "store_failed", message: "The token set could not be deleted from Redis" },
    ]);
  });

  it("Redis frozen under the default lockTimeoutMs: a lock try still ends after commandTimeoutMs", async () => {
    const redis = await ownRedis();
    // lockTimeoutMs stays 120 000: only the command timeout can end the try before Redis thaws.
    const store = redisStore({ client: redis.client, tenant: freshTenant().tenant, commandTimeoutMs: 300 });
    const { auth, server } = managerOn(store);
    redis.freeze();
    const result = await settlesBefore(auth.getAccessToken(), async () => redis.thaw(), 8_000);
    expect(result.before).toBe(true);
    expect(result.error).toMatchObject({
      code: "store_failed",
      // It names Redis, the option that bounds the wait, and the fix.
      message: expect.stringMatching(
        /^The Redis lock of the token set could not be taken: Redis did not answer within commandTimeoutMs \(300 ms\).*Check that the Redis server .* is up and reachable/,
      ),
    });
    expect(server.tokenCalls()).toBe(0);
  });

  it("a lock try that timed out leaves no lock behind once Redis answers again", async () => {
    const redis = await ownRedis();
    const { tenant, lock } = freshTenant();
    const store = redisStore({ client: redis.client, tenant, lockTimeoutMs: 0, commandTimeoutMs: 200 });
    redis.freeze();
    let ran = false;
    const error = await store
      .lock?.(async () => {
        ran = true;
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "store_failed" });
    expect(ran).toBe(false);
    redis.thaw();
    // The SET NX sent before the timeout still reaches Redis after the thaw; one answer on the same
    // connection means every command queued before it has run.
    await redis.client.ping();
    expect(await redis.client.exists(lock)).toBe(0);
  });

  it("Redis killed mid-renewal: the caller gets its token before Redis is back, kept in memory, logged", async () => {
    const redis = await ownRedis();
    const store = redisStore({
      client: redis.client,
      tenant: freshTenant().tenant,
      lockTimeoutMs: 2_000,
      commandTimeoutMs: 500,
    });
    const { server, managerOn } = sandboxHosts();
    const { auth, logs: lines } = managerOn(store, {
      ...PLAIN,
      // Redis dies while the token call is under way: the lock is held, the write has not happened.
      fetch: async (request) => {
        await redis.kill();
        return server.fetch(request);
      },
    });
    const result = await settlesBefore(auth.getAccessToken(), redis.restart, 8_000);
    expect(result.before).toBe(true);
    expect(result.value).toEqual(expect.stringMatching(/^ey/));
    expect(lines.some((line) => line.startsWith("error The token store could not save the new tokens"))).toBe(
      true,
    );
    expect(server.counters().exchanges).toBe(1);
  });

  it("Redis killed mid-renewal, default options: the token is handed out without waiting on the lock's release", async () => {
    const redis = await ownRedis();
    const { commandTimeoutMs } = redisStoreDefaults; // not passed below
    const store = redisStore({ client: redis.client, tenant: freshTenant().tenant });
    const { clock, server } = sandboxHosts();
    const { lines, logger } = recordingLogger();
    let saveFailedAt = Number.NaN;
    const auth = createTokenManager({
      baseUrl: BASE,
      rcAccessToken: server.parentToken,
      fetch: async (request) => {
        await redis.kill();
        return server.fetch(request);
      },
      clock,
      logger: {
        ...logger,
        error: (...args: Parameters<NonNullable<typeof logger.error>>) => {
          saveFailedAt = performance.now();
          logger.error?.(...args);
        },
      },
      store,
    });
    const startedAt = performance.now();
    const result = await settlesBefore(auth.getAccessToken(), redis.restart, 3 * commandTimeoutMs);
    const tokenAt = performance.now();
    expect(result.before).toBe(true);
    expect(result.value).toEqual(expect.stringMatching(/^ey/));
    expect(lines.some((line) => line.startsWith("error The token store could not save the new tokens"))).toBe(
      true,
    );
    // The save waits out its own deadline (one commandTimeoutMs); the lock's release, sent to the same
    // dead server, must not add a second one. Timers never fire early, so a release that was waited for
    // puts at least commandTimeoutMs between the two.
    expect(tokenAt - saveFailedAt).toBeLessThan(commandTimeoutMs / 2);
    expect(tokenAt - startedAt).toBeLessThan(2 * commandTimeoutMs);
  });
});

describe("a holder that lost its lock", () => {
  it("cannot overwrite a stored set without a sequence (read as 0) with another set of sequence 0", async () => {
    const redis = await ownRedis();
    const { tenant, tokens: key } = freshTenant();
    const store = redisStore({ client: redis.client, tenant });
    const legacy = {
      accessToken: "legacy-access",
      refreshToken: "legacy-refresh",
      expiresAt: 2,
      obtainedAt: 1,
    };
    await redis.client.set(key, JSON.stringify(legacy));
    // A set from before sequences existed, as a plain object: its sequence reads as 0 too.
    const { sequence: _none, ...plain } = toTokenSetForTests("late-access", "revoked-refresh", 0);
    await expect(store.set(plain as unknown as TokenSet)).rejects.toMatchObject({
      code: "store_failed",
      message: expect.stringMatching(/not written to Redis: the stored one is newer/),
    });
    expect((await store.get())?.accessToken).toBe("legacy-access");
    await store.set(toTokenSetForTests("renewed-access", "renewed-refresh", 1));
    expect((await store.get())?.accessToken).toBe("renewed-access");
  });

  it("cannot overwrite a newer stored set with its own", async () => {
    const redis = await ownRedis();
    const { tenant, tokens: key } = freshTenant();
    const store = redisStore({ client: redis.client, tenant });
    const newer = toTokenSetForTests("newer-access", "newer-refresh", 7);
    const late = toTokenSetForTests("late-access", "revoked-refresh", 7);
    const older = toTokenSetForTests("older-access", "older-refresh", 6);
    await store.set(newer);
    // A frozen holder's renewal of the same set, finished after the lock expired, and an older set:
    // refused, and said so (the manager keeps its set in memory and logs it).
    await expect(store.set(late)).rejects.toMatchObject({ code: "store_failed" });
    await expect(store.set(older)).rejects.toMatchObject({ code: "store_failed" });
    expect((await store.get())?.accessToken).toBe("newer-access");
    // The same set again (same sequence, same access token) is written as it is.
    await store.set(fromStored({ ...newer, expiresAt: 3 }) as TokenSet);
    expect((await store.get())?.expiresAt).toBe(3);
    await store.set(toTokenSetForTests("next-access", "next-refresh", 8));
    expect((await store.get())?.accessToken).toBe("next-access");
    // A sequence no renewal reaches counts as 0: a stored set at 2^53 - 1 does not jam the key.
    await redis.client.set(key, JSON.stringify({ ...newer, accessToken: "jam", sequence: 2 ** 53 - 1 }));
    await store.set(toTokenSetForTests("after-jam", "after-jam-refresh", 1));
    expect((await store.get())?.accessToken).toBe("after-jam");
    // JSON that is not a token set reads as empty, whatever sequence it claims: it is replaced.
    await redis.client.set(key, JSON.stringify({ sequence: 99, accessToken: "" }));
    await store.set(older);
    expect((await store.get())?.accessToken).toBe("older-access");
    // Something that is not a token set is replaced.
    await redis.client.set(key, "{ junk");
    await store.set(older);
    expect((await store.get())?.accessToken).toBe("older-access");
  });
});

describe("a renewal whose process died with Redis, Redis restarted", () => {
  const folders: string[] = [];
  afterEach(async () => {
    for (const folder of folders.splice(0)) {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it.each([
    ["from its append-only file", true],
    ["empty", false],
  ])(
    "restarted %s: the survivor exchanges instead of presenting the refresh token the dead renewal spent",
    async (_, persisted) => {
      const appendOnlyDir = persisted ? await mkdtemp(join(tmpdir(), "ev-redis-aof-")) : undefined;
      if (appendOnlyDir) {
        folders.push(appendOnlyDir);
      }
      const redis = await ownRedis(appendOnlyDir ? { appendOnlyDir } : {});
      const options = { tenant: freshTenant().tenant, lockTtlMs: 1_000 };
      const { clock, server, managerOn } = sandboxHosts();
      // The renewing process's commands end soon after Redis dies with it. The survivor's commands run
      // on a Redis that is up again: their bound is a hang guard, wide enough for a busy machine.
      const manager = (client: RedisLike, commandTimeoutMs: number, fetch = server.fetch) =>
        managerOn(redisStore({ client, ...options, commandTimeoutMs }), { ...PLAIN, fetch }).auth;

      // The renewing process has a connection of its own, which dies with it.
      const own = createClient({ url: redis.url });
      own.on("error", () => {});
      await own.connect();
      clients.push(own);
      let killDuringNextCall = false;
      const renewing = manager(own, 500, async (request) => {
        if (killDuringNextCall) {
          killDuringNextCall = false;
          await redis.kill();
        }
        return server.fetch(request);
      });
      const survivor = manager(redis.client, 10_000);
      await renewing.getAccessToken();
      await survivor.getAccessToken(); // the stored set, refresh token included, in the survivor's memory
      clock.advance(301_000);

      // Redis dies while the refresh is under way: the server rotates, the new set is never stored.
      killDuringNextCall = true;
      await renewing.getAccessToken();
      expect(server.counters().refreshes).toBe(1);
      own.destroy(); // the process is gone, and what its client had queued with it
      await redis.restart();
      while (!redis.client.isReady) {
        await pause(20);
      }

      const token = await survivor.getAccessToken();
      // No spent refresh token presented again: the survivor exchanged instead.
      expect(server.counters()).toMatchObject({ refreshes: 1, exchanges: 2, reusedRefreshTokens: 0 });
      const answer = await server.fetch(
        new Request(`${BASE}/voice/api/v1/admin/accounts`, { headers: { Authorization: `Bearer ${token}` } }),
      );
      expect(answer.status).toBe(200);
    },
  );
});
