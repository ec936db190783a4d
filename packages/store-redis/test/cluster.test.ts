// The store's main behaviours on a single redis-server and on a real Redis Cluster of three masters
// (node-redis's createCluster): one refresh per expiry for many managers, the lock, and a tenant's
// keys in one slot. Tenants are spread over the cluster's nodes by their hash tags.

import { exchangeLimitDefaults } from "@engage-voice/auth/store-kit";
import { type RunningRedisCluster, startRedisCluster } from "@engage-voice/test-kit/servers";
import { createClient, createCluster } from "redis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  budgetKeys,
  type RedisLike,
  type RedisSubscriber,
  redisExchangeBudget,
  redisNames,
  redisStore,
  redisStoreDefaults,
} from "../src/index.js";
import { freshTenant } from "./helpers.js";
import { sandboxHosts } from "./hosts.js";

/** What the tests need of a connection: the store's commands and a few of their own. */
type Connection = RedisLike & {
  exists(key: string): Promise<number>;
  pTTL(key: string): Promise<number>;
  close(): Promise<unknown>;
  duplicate(): { connect(): Promise<RedisSubscriber & { close(): Promise<unknown> }> };
};

let cluster: RunningRedisCluster;
const opened: Connection[] = [];
beforeAll(async () => {
  cluster = await startRedisCluster();
});
afterAll(async () => {
  await Promise.all(opened.splice(0).map((connection) => connection.close()));
  await cluster?.stop();
});

const topologies: [string, () => Promise<Connection>][] = [
  ["a single server", async () => (await createClient({ url: inject("redisUrl") }).connect()) as Connection],
  [
    "a Redis Cluster",
    async () =>
      (await createCluster({
        rootNodes: cluster.urls.map((url) => ({ url })),
      }).connect()) as unknown as Connection,
  ],
];

/** The manager's own waits and jitter, as a user's; the tenant the store names. */
const PLAIN = { sleep: undefined, random: undefined, tenant: undefined };

describe.each(topologies)("redisStore on %s", (_, open) => {
  /** A connection of another "process". */
  const connect = async () => {
    const connection = await open();
    opened.push(connection);
    return connection;
  };

  it("makes one refresh per tenant across an expiry, for several managers each", async () => {
    const tenants = Array.from({ length: 6 }, () => freshTenant());
    const redis = await connect();
    await Promise.all(
      tenants.map(async ({ tenant, lock }) => {
        const { clock, server, managerOn } = sandboxHosts();
        const make = async () => managerOn(redisStore({ client: await connect(), tenant }), PLAIN).auth;
        const initial = await (await make()).getAccessToken();
        clock.advance(301_000);
        const managers = await Promise.all(Array.from({ length: 3 }, make));
        const tokens = await Promise.all(managers.map((m) => m.getAccessToken()));
        expect(new Set(tokens).size).toBe(1);
        expect(tokens[0]).not.toBe(initial);
        expect(server.counters()).toMatchObject({ refreshes: 1, exchanges: 1 });
        expect(await redis.exists(lock)).toBe(0);
      }),
    );
  });

  it("runs one tenant's renewals strictly one after another", async () => {
    const { tenant, lock } = freshTenant();
    const stores = await Promise.all(
      Array.from({ length: 3 }, async () => redisStore({ client: await connect(), tenant })),
    );
    let inside = 0;
    let most = 0;
    await Promise.all(
      stores.flatMap((store) =>
        [1, 2].map(() =>
          store.lock?.(async () => {
            most = Math.max(most, ++inside);
            await new Promise((resolve) => setImmediate(resolve));
            inside--;
          }),
        ),
      ),
    );
    expect(most).toBe(1);
    expect(await (await connect()).exists(lock)).toBe(0);
  });

  it("holds the lock for lockTtlMs at a time (what a crashed holder costs), extended by its heartbeat", async () => {
    const { tenant, lock } = freshTenant();
    const redis = await connect();
    const ttl = await redisStore({ client: redis, tenant }).lock?.(() => redis.pTTL(lock));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(redisStoreDefaults.lockTtlMs);
  });

  it.each([
    ["with a subscriber, wakes on the release: its second try takes the lock", true],
    ["without one, polls while the holder holds on", false],
  ])("a waiter %s", async (_, subscribed) => {
    const { tenant } = freshTenant();
    const holder = redisStore({ client: await connect(), tenant });
    const waiting = await connect();
    let tries = 0;
    let heard = 0;
    /** The releases heard before each try. */
    const heardBeforeTry: number[] = [];
    let tried: () => void = () => {};
    const firstTry = new Promise<void>((resolve) => {
      tried = resolve;
    });
    // The waiter's connection, counting its tries for the lock (SET NX) once answered.
    const counting: RedisLike = {
      get: (key) => waiting.get(key),
      set: async (key, value, options) => {
        const reply = await waiting.set(key, value, options);
        if (options?.condition === "NX") {
          tries++;
          heardBeforeTry.push(heard);
          tried();
        }
        return reply;
      },
      del: (key) => waiting.del(key),
      eval: (script, options) => waiting.eval(script, options),
      evalSha: (sha, options) => waiting.evalSha(sha, options),
    };
    const subscriber = subscribed ? await waiting.duplicate().connect() : undefined;
    if (subscriber) {
      opened.push(subscriber as unknown as Connection);
    }
    // With a subscriber the waiter sleeps up to a quarter of its lock's TTL between tries when it hears
    // no release: a TTL of 20 s makes that 5 s, far past the second this test holds on, so only the
    // release (not a busy machine's slow second) can end the waiter's pause.
    const listening: RedisSubscriber | undefined = subscriber && {
      subscribe: (channel, listener) =>
        subscriber.subscribe(channel, (message, from) => {
          heard++;
          listener(message, from);
        }),
    };
    const waiter = redisStore({
      client: counting,
      tenant,
      ...(listening ? { subscriber: listening, lockTtlMs: 20_000 } : {}),
    });
    let letGo: () => void = () => {};
    let entered: () => void = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const held = holder.lock?.(async () => {
      entered();
      await new Promise<void>((resolve) => {
        letGo = resolve;
      });
    });
    await inside;
    const waited = waiter.lock?.(async () => "the waiter ran");
    await firstTry;
    // A second of holding on after the waiter's first try: a poller's backoff (up to 200 ms) would try
    // several times meanwhile. Not a verdict on time: the count below is.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    letGo();
    await held;
    expect(await waited).toBe("the waiter ran");
    if (subscribed) {
      // Its second try followed the release it heard, not the end of its pause.
      expect(tries).toBe(2);
      expect(heardBeforeTry).toEqual([0, 1]);
    } else {
      expect(tries).toBeGreaterThan(2);
    }
  });
});

describe.each(topologies)("redisExchangeBudget on %s", (_, open) => {
  it("is one budget for two processes: the third take of a budget of two is told to wait for the minute", async () => {
    const name = `budget-${Math.random().toString(36).slice(2)}`;
    const clock = { now: () => 0 };
    const budgets = await Promise.all(
      [1, 2].map(async () => {
        const connection = await open();
        opened.push(connection);
        return redisExchangeBudget({ client: connection, perMinute: 2, name, clock });
      }),
    );
    const [a, b] = budgets as [(typeof budgets)[0], (typeof budgets)[0]];
    expect([await a.take(), await b.take(), await a.take()]).toEqual([
      0,
      0,
      exchangeLimitDefaults.windowMs + exchangeLimitDefaults.marginMs,
    ]);
  });
});

describe("a tenant's keys on a Redis Cluster", () => {
  it("and an exchange budget's hash to one slot each", async () => {
    const port = cluster.nodes[0]?.port;
    const { window, blocked } = budgetKeys("exchanges", "ev-test");
    expect(await keySlot(port, window)).toBe(await keySlot(port, blocked));
  });

  it("hash to one slot, and tenants spread over the nodes", async () => {
    const slots = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const names = redisNames(`tenant-${i}`, "ev-test");
      const [tokens, lock, released] = await Promise.all(
        [names.tokens, names.lock, names.released].map((key) => keySlot(cluster.nodes[0]?.port, key)),
      );
      expect(lock).toBe(tokens);
      expect(released).toBe(tokens);
      slots.add(tokens as number);
    }
    expect(slots.size).toBeGreaterThan(1);
  });
});

async function keySlot(port: number | undefined, key: string): Promise<number> {
  const client = await createClient({ url: `redis://127.0.0.1:${port}` }).connect();
  try {
    return Number(await client.clusterKeySlot(key));
  } finally {
    await client.close();
  }
}
