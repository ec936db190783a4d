// Token managers of several "processes" (each with its own Redis connection) on one redisStore,
// against the sandbox on a fake clock.
import type { FetchLike, TokenStore } from "@engage-voice/auth";
import { describe, expect, it } from "vitest";
import { redisStore } from "../src/index.js";
import { connect, freshTenant } from "./helpers.js";
import { sandboxHosts } from "./hosts.js";

/** The manager's own waits and jitter, as a user's; the tenant the store names. */
const PLAIN = { sleep: undefined, random: undefined, tenant: undefined };

/** Managers on one Redis key and one fake server: each `make()` is another process's manager. */
function managersOn(tenant: string, lock: boolean) {
  const { clock, server, managerOn } = sandboxHosts();
  const make = async () => {
    const store: TokenStore = redisStore({ client: await connect(), tenant });
    const { lock: _lock, ...unlocked } = store;
    return managerOn(lock ? store : unlocked, PLAIN).auth;
  };
  return { clock, server, make };
}

describe("redisStore shared by several managers", () => {
  it("lets a new manager resume the stored session without a new exchange", async () => {
    const { server, make } = managersOn(freshTenant().tenant, true);
    const first = await (await make()).getAccessToken();
    const resumed = await make();
    expect(await resumed.getAccessToken()).toBe(first);
    expect(resumed.session()?.accountIds).toEqual([server.parentUser.accountId]);
    expect(server.counters().exchanges).toBe(1);
  });

  it("renew one at a time under the lock: one refresh, everyone gets its token", async () => {
    const { tenant, tokens: key, lock } = freshTenant();
    const { clock, server, make } = managersOn(tenant, true);
    const initial = await (await make()).getAccessToken();
    clock.advance(301_000);
    const managers = await Promise.all(Array.from({ length: 4 }, make));
    const tokens = await Promise.all(managers.map((m) => m.getAccessToken()));
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(initial);
    expect(server.counters().refreshes).toBe(1);
    expect(server.counters().exchanges).toBe(1);
    const redis = await connect();
    expect(JSON.parse((await redis.get(key)) ?? "").accessToken).toBe(tokens[0]);
    expect(await redis.exists(lock)).toBe(0);
  });

  it("a manager whose set another process renewed takes the new one with a GET, without the lock", async () => {
    const { tenant } = freshTenant();
    const { clock, server, managerOn } = sandboxHosts();
    const processes = await Promise.all(
      [0, 1].map(async () => {
        const store = redisStore({ client: await connect(), tenant });
        const counted = { locks: 0 };
        const lock: NonNullable<TokenStore["lock"]> = (task) => {
          counted.locks++;
          return (store.lock as NonNullable<TokenStore["lock"]>)(task);
        };
        return { counted, auth: managerOn({ ...store, lock }, PLAIN).auth };
      }),
    );
    const [first, second] = processes as [(typeof processes)[0], (typeof processes)[0]];
    const initial = await first.auth.getAccessToken();
    expect(await second.auth.getAccessToken()).toBe(initial);
    clock.advance(301_000);
    const renewed = await first.auth.getAccessToken();
    expect(renewed).not.toBe(initial);
    const locksBefore = second.counted.locks;
    expect(await second.auth.getAccessToken()).toBe(renewed);
    expect(second.counted.locks).toBe(locksBefore);
    expect(server.counters().refreshes).toBe(1);
  });

  it("without the lock, racing managers spend the same refresh token (why the lock matters)", async () => {
    const { clock, server, make } = managersOn(freshTenant().tenant, false);
    await (await make()).getAccessToken();
    clock.advance(301_000);
    const managers = await Promise.all(Array.from({ length: 2 }, make));
    await Promise.all(managers.map((m) => m.getAccessToken()));
    // Both presented one refresh token: the loser's was spent, the sandbox revoked the session and
    // the loser exchanged again.
    expect(server.counters()).toMatchObject({ refreshes: 1, reusedRefreshTokens: 1, exchanges: 2 });
  });

  it("fails with store_failed and makes no token call while someone else holds the lock", async () => {
    const { tenant, lock } = freshTenant();
    const { server, managerOn } = sandboxHosts();
    const redis = await connect();
    await redis.set(lock, "another-holder", { expiration: { type: "PX", value: 60_000 } });
    const { auth } = managerOn(redisStore({ client: redis, tenant, lockTimeoutMs: 100 }), PLAIN);
    await expect(auth.getAccessToken()).rejects.toMatchObject({ code: "store_failed" });
    expect(server.counters().exchanges).toBe(0);
  });

  it("a holder that lost its lock while frozen cannot overwrite the set its successor stored", async () => {
    const { tenant, tokens: key, lock } = freshTenant();
    const { clock, server, managerOn } = sandboxHosts();
    const redis = await connect();
    const manager = async (fetch: FetchLike) =>
      managerOn(redisStore({ client: await connect(), tenant }), { ...PLAIN, fetch }).auth;
    let froze: () => void = () => {};
    const frozen = new Promise<void>((resolve) => {
      froze = resolve;
    });
    let thaw: () => void = () => {};
    const thawed = new Promise<void>((resolve) => {
      thaw = resolve;
    });
    const late = await manager(async (request) => {
      const response = await server.fetch(request);
      if (new URL(request.url).pathname === "/api/auth/token/refresh") {
        // Refreshed, then stopped before storing, longer than the lock's TTL: the lock is gone.
        await redis.del(lock);
        froze();
        await thawed;
      }
      return response;
    });
    await late.getAccessToken();
    clock.advance(301_000);
    const lateToken = late.getAccessToken();
    await frozen;
    // The successor finds the old set, whose refresh token the frozen holder spent: it exchanges
    // again, and its set has the same sequence as the frozen holder's.
    const successor = await manager(server.fetch);
    const good = await successor.getAccessToken();
    expect(server.counters().exchanges).toBe(2);
    thaw();
    expect(await lateToken).not.toBe(good);
    const stored = JSON.parse((await redis.get(key)) ?? "");
    expect(stored).toMatchObject({ accessToken: good, sequence: 2 });
    // The stored refresh token is the successor's, still valid: the next renewal needs no exchange.
    clock.advance(301_000);
    await (await manager(server.fetch)).getAccessToken();
    expect(server.counters().exchanges).toBe(2);
  });

  it("clears the shared set on logout", async () => {
    const { tenant, tokens: key } = freshTenant();
    const { make } = managersOn(tenant, true);
    const auth = await make();
    await auth.getAccessToken();
    await auth.logout();
    expect(await (await connect()).exists(key)).toBe(0);
  });
});

describe("tenants on one Redis", () => {
  it("never serve each other's sets: a store is made for one tenant, and a copied set is refused", async () => {
    const { server, managerOn } = sandboxHosts();
    const redis = await connect();
    const a = freshTenant();
    const b = freshTenant();
    const acme = managerOn(redisStore({ client: redis, tenant: a.tenant }), PLAIN).auth;
    await acme.getAccessToken();
    // A store of tenant A given to tenant B's manager: refused before anything is read.
    expect(() =>
      managerOn(redisStore({ client: redis, tenant: a.tenant }), { ...PLAIN, tenant: b.tenant }),
    ).toThrow(/was given a store of tenant/);
    // A's set copied under B's key (a script gone wrong, a restore into the wrong key): refused loudly.
    await redis.set(b.tokens, (await redis.get(a.tokens)) ?? "");
    const globex = managerOn(redisStore({ client: redis, tenant: b.tenant }), PLAIN).auth;
    await expect(globex.getAccessToken()).rejects.toMatchObject({ code: "tenant_mismatch" });
    expect(server.counters().exchanges).toBe(1);
  });
});
