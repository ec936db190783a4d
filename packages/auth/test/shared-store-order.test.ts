import { createClient } from "@engage-voice/client";
import { describe, expect, it } from "vitest";
import { memoryStore, type TokenStore } from "../src/index.js";
import { lockingRules } from "../src/store-kit.js";
import { toTokenSet } from "../src/tokens.js";
import { BASE, HOSTED_TENANT, hostsFor } from "./fake-server.js";

/** One store shared by several managers, renewing one at a time, as a file or Redis store does. */
function lockedMemoryStore(): TokenStore {
  const store = memoryStore();
  let queue: Promise<unknown> = Promise.resolve();
  return {
    ...store,
    lockingRules,
    lock<T>(task: () => Promise<T>) {
      const run = queue.then(task);
      queue = run.catch(() => {});
      return run;
    },
  };
}

/** Managers on one store and one fake server, each on the shared clock moved by its own `offset`. */
function managersOn(store: TokenStore, lifetimeSeconds = 300) {
  const { clock, server, managerOn } = hostsFor({ lifetimeSeconds });
  const make = (offset = 0) =>
    managerOn(store, { clock: { now: () => clock.now() + offset }, sleep: undefined, random: undefined })
      .auth;
  return { clock, server, make };
}

describe("which of two token sets is newer does not depend on any process's clock", () => {
  it.each([5_000, -5_000, 60_000])(
    "managers %i ms apart share a store: no refresh token is presented twice",
    async (skewMs) => {
      const { clock, server, make } = managersOn(lockedMemoryStore(), 2);
      const clients = [make(0), make(skewMs)].map((auth) => {
        const client = createClient({ baseUrl: BASE, fetch: server.fetch });
        client.use(auth.middleware);
        return client;
      });
      for (let step = 0; step < 200; step++) {
        await clients[step % 2]?.GET("/voice/api/v1/admin/accounts");
        clock.advance(100);
      }
      expect(server.calls.refresh).toBeGreaterThan(3);
      expect(new Set(server.refreshTokensSent).size).toBe(server.refreshTokensSent.length);
      expect(server.calls.exchange).toBe(1);
    },
  );

  it("a fast-clock manager takes the newer set a slow-clock manager stored, though its expiry looks earlier", async () => {
    const { server, make } = managersOn(lockedMemoryStore(), 2);
    const slow = make(0);
    const fast = make(5_000);
    const first = await fast.refresh(); // stamped on the fast clock
    const second = await slow.refresh(); // refreshes the stored set; stamped on the slow clock
    expect(second.expiresAt).toBeLessThan(first.expiresAt);
    const third = await fast.refresh();
    expect(server.refreshTokensSent).toEqual([first.refreshToken, second.refreshToken]);
    expect(third.sequence).toBe(3);
    expect(server.calls.exchange).toBe(1);
  });

  it("sets carry a sequence: one more than the set they came from, kept through the store", async () => {
    const store = memoryStore();
    const { make } = managersOn(store);
    const auth = make();
    expect((await auth.refresh()).sequence).toBe(1);
    expect((await auth.refresh()).sequence).toBe(2);
    expect((await store.get())?.sequence).toBe(2);
    // A second manager on the same store goes on from the stored set.
    const other = make();
    expect((await other.refresh()).sequence).toBe(3);
  });

  it("a stored set with a lower sequence is not taken over a newer one in memory", async () => {
    const { clock, server, managerOn } = hostsFor();
    const older = toTokenSet(
      { accessToken: "older-access", refreshToken: "older-refresh" },
      clock.now(),
      null,
    );
    let stored = older;
    const store: TokenStore = {
      get: async () => stored,
      set: async () => {}, // a store that lost the write: it still holds the older set
      clear: async () => {},
    };
    const { auth } = managerOn(store, { logger: {}, sleep: undefined, random: undefined });
    stored = undefined as never;
    const first = await auth.refresh(); // exchange: sequence 1
    stored = { ...older, sequence: 0, tenant: HOSTED_TENANT } as typeof older;
    const second = await auth.refresh();
    expect(second.sequence).toBe(first.sequence + 1);
    expect(server.refreshTokensSent).toEqual([first.refreshToken]);
  });

  it("a store restarted empty: another process's new exchange is newer than the set held, though its sequence is 1", async () => {
    const store = lockedMemoryStore();
    const { server, make } = managersOn(store);
    const [first, second, third] = [make(), make(), make()];
    await first.refresh(); // exchange: sequence 1
    await first.refresh(); // sequence 2
    await second.getAccessToken(); // reads sequence 2
    await first.refresh(); // sequence 3: the refresh token second holds is spent
    await store.clear(); // Redis restarted with nothing
    expect((await third.refresh()).sequence).toBe(1); // a fresh process exchanges
    await second.refresh();
    expect(new Set(server.refreshTokensSent).size).toBe(server.refreshTokensSent.length);
    expect(server.calls.exchange).toBe(2);
  });

  it("a read that failed under the lock: the refresh token held is not presented, the session exchanges", async () => {
    const base = lockedMemoryStore();
    let failReads = 0;
    const store: TokenStore = {
      ...base,
      get: async () => {
        if (failReads > 0) {
          failReads--;
          throw new Error("connection lost");
        }
        return base.get();
      },
    };
    const { server, make } = managersOn(store);
    const [first, second] = [make(), make()];
    await first.refresh(); // exchange
    await second.getAccessToken(); // reads it
    await first.refresh(); // spends the refresh token second holds
    failReads = 1;
    await second.refresh();
    expect(new Set(server.refreshTokensSent).size).toBe(server.refreshTokensSent.length);
    expect(server.calls.exchange).toBe(2);
  });
});
