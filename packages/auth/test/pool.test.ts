// The tenant pool against the sandbox holding many tenants, on one fake clock.
import { describe, expect, it, vi } from "vitest";
import {
  createTenantPool,
  type EngageVoiceAuthError,
  memoryStore,
  type PoolEvent,
  poolDefaults,
  type TenantPoolOptions,
  type TokenStore,
} from "../src/index.js";
import { createSandboxApps, fakeClock } from "./fake-server.js";

const BASE = "https://engage.example.test";

/** The sandbox with `tenants` tenants; `t<i>` is tenant i's id in the pool. */
function hosts(
  tenants: number,
  overrides: Partial<TenantPoolOptions> = {},
  { revoked = new Set<string>(), exchangesPerMinute = 5 } = {},
) {
  const { manager: managerOverrides, ...poolOverrides } = overrides;
  const clock = fakeClock();
  const apps = createSandboxApps({ tenants, now: () => clock.now() });
  let gate: Promise<void> | undefined;
  const fetch = async (request: Request) => {
    await gate;
    return apps.main.fetch(request);
  };
  const events: PoolEvent[] = [];
  const lines: string[] = [];
  const logger = {
    debug: (l: string) => lines.push(l),
    warn: (l: string) => lines.push(l),
    error: (l: string) => lines.push(l),
  };
  const index = (tenant: string) => Number(tenant.slice(1));
  const pool = createTenantPool({
    rcAccessToken: (tenant) =>
      revoked.has(tenant)
        ? "revoked-parent-token"
        : (apps.tenant(index(tenant)).parentTokens[0]?.token as string),
    manager: {
      exchangesPerMinute,
      baseUrl: BASE,
      fetch,
      clock,
      logger,
      sleep: async (ms) => clock.advance(ms),
      random: () => 0.5,
      ...managerOverrides,
    },
    onEvent: (event) => events.push(event),
    ...poolOverrides,
  });
  /** Holds every token call until the returned function is called. */
  const hold = () => {
    let release = () => {};
    gate = new Promise((resolve) => {
      release = resolve;
    });
    return () => {
      gate = undefined;
      release();
    };
  };
  return { apps, pool, clock, events, lines, hold, index };
}

describe("createTenantPool", () => {
  it("gives each tenant its own manager, made on first use and shared after", async () => {
    const { apps, pool, events } = hosts(3);
    const first = pool.get("t1");
    expect(pool.get("t1")).toBe(first);
    expect(pool.get("t2")).not.toBe(first);
    await Promise.all(["t1", "t2", "t3", "t1", "t2"].map((t) => pool.get(t).getAccessToken()));
    for (const i of [1, 2, 3]) {
      expect(pool.get(`t${i}`).session()?.mainAccountId).toBe(apps.tenant(i).mainAccountId);
      expect(apps.control.counters(i).exchanges).toBe(1);
    }
    expect(events.filter((e) => e.type === "created").map((e) => e.tenant)).toEqual(["t1", "t2", "t3"]);
    // The three exchanges run at once: they may end in any order.
    expect(
      events
        .filter((e) => e.type === "exchanged")
        .map((e) => e.tenant)
        .sort(),
    ).toEqual(["t1", "t2", "t3"]);
  });

  it("derives each tenant's store from its function: a set of one tenant is never another's", async () => {
    const stores = new Map<string, TokenStore>();
    const { pool } = hosts(2, {
      store: (tenant) => {
        const store = memoryStore();
        stores.set(tenant, store);
        return store;
      },
    });
    await pool.get("t1").getAccessToken();
    await pool.get("t2").getAccessToken();
    expect((await stores.get("t1")?.get())?.tenant).toBe("t1");
    expect((await stores.get("t2")?.get())?.tenant).toBe("t2");
  });

  it.each(["", "t 1", "{t1}", "t1\nlevel=error", "../t1"])(
    "refuses the tenant id %j with what an id may hold",
    (tenant) => {
      const { pool } = hosts(1);
      expect(() => pool.get(tenant)).toThrow(/tenant must be 1 to 100 letters/);
      expect(pool.size).toBe(0);
    },
  );

  it("one tenant's revoked parent token fails that tenant only, naming it, without the token", async () => {
    const { pool, lines } = hosts(2, {}, { revoked: new Set(["t1"]) });
    const failed = await pool
      .get("t1")
      .getAccessToken()
      .catch((e: unknown) => e);
    expect((failed as EngageVoiceAuthError).code).toBe("exchange_rejected");
    expect(await pool.get("t2").getAccessToken()).toMatch(/^ey/);
    expect(`${lines.join("\n")} ${String(failed)}`).not.toContain("revoked-parent-token");
  });

  it("each tenant keeps its own exchange limit by default: one spending it leaves the others theirs", async () => {
    const { pool } = hosts(2, {}, { exchangesPerMinute: 1 });
    await pool.get("t1").getAccessToken();
    await pool.get("t1").logout();
    const limited = await pool
      .get("t1")
      .getAccessToken()
      .catch((e: unknown) => e);
    expect((limited as EngageVoiceAuthError).code).toBe("rate_limited");
    expect(await pool.get("t2").getAccessToken()).toMatch(/^ey/);
  });

  it("with a shared budget, a tenant past it waits for the next slot when it comes within timeoutMs", async () => {
    const { pool, clock } = hosts(3, { exchangeBudget: 2, manager: { timeoutMs: 120_000 } });
    const start = clock.now();
    const tokens = await Promise.all(["t1", "t2", "t3"].map((t) => pool.get(t).getAccessToken()));
    expect(new Set(tokens).size).toBe(3);
    // The third waited for the first slot to leave the minute, on the injected sleep.
    expect(clock.now() - start).toBeGreaterThanOrEqual(60_000);
  });

  it("with a shared budget, a slot past timeoutMs is rate_limited at once, saying when it comes", async () => {
    const { pool, clock } = hosts(3, { exchangeBudget: 2 });
    const start = clock.now();
    const results = await Promise.all(
      ["t1", "t2", "t3"].map((t) =>
        pool
          .get(t)
          .getAccessToken()
          .catch((e: unknown) => e),
      ),
    );
    expect(results.filter((r) => typeof r === "string")).toHaveLength(2);
    const refused = results.find((r) => typeof r !== "string") as EngageVoiceAuthError & {
      retryAfterMs: number;
    };
    expect(refused).toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(/budget .* is spent/),
    });
    expect(refused.retryAfterMs).toBeGreaterThan(30_000);
    expect(clock.now() - start).toBeLessThan(30_000);
  });

  it("takes one slot of a budget shared across processes per exchange, and tells it of a 429", async () => {
    const taken: string[] = [];
    const blocked: number[] = [];
    const budget = {
      take: async () => {
        taken.push("slot");
        return 0;
      },
      blockFor: (ms: number) => {
        blocked.push(ms);
      },
    };
    // The tenant's own limit stays under a shared budget: raised here so that the sandbox answers 429.
    const { pool } = hosts(2, { exchangeBudget: budget }, { exchangesPerMinute: 100 });
    await pool.get("t1").getAccessToken();
    await pool.get("t2").getAccessToken();
    expect(taken).toHaveLength(2);
    // The sandbox's own limit of tenant 1 (5 a minute): the sixth exchange is answered 429.
    for (let i = 0; i < 5; i++) {
      await pool.get("t1").logout();
      await pool
        .get("t1")
        .getAccessToken()
        .catch(() => undefined);
    }
    expect(taken).toHaveLength(7);
    expect(blocked).toHaveLength(1);
    expect(blocked[0]).toBeGreaterThan(0);
  });

  it("logs a budget that cannot be told of a 429, and the caller still gets the 429's error", async () => {
    const budget = {
      take: async () => 0,
      blockFor: async () => {
        throw new Error("connection lost");
      },
    };
    const { pool, lines } = hosts(1, { exchangeBudget: budget }, { exchangesPerMinute: 100 });
    let last: unknown;
    for (let i = 0; i < 6; i++) {
      await pool.get("t1").logout();
      last = await pool
        .get("t1")
        .getAccessToken()
        .catch((e: unknown) => e);
    }
    expect((last as EngageVoiceAuthError).code).toBe("rate_limited");
    await vi.waitFor(() =>
      expect(lines.some((l) => l.startsWith("The exchange budget could not be told of a 429"))).toBe(true),
    );
  });

  it.each([
    ["a negative number", -1],
    ["an object without take()", { blockFor: () => {} }],
    ["a string", "20"],
  ])("refuses an exchangeBudget that is %s, naming both forms", (_, exchangeBudget) => {
    expect(() =>
      createTenantPool({ rcAccessToken: () => "t", exchangeBudget: exchangeBudget as never }),
    ).toThrow(/exchangeBudget/);
  });

  it("lets the least recently used idle manager go beyond maxTenants, and idle ones past idleMs", async () => {
    const { pool, events, clock } = hosts(4, { maxTenants: 2, idleMs: 10_000 });
    await pool.get("t1").getAccessToken();
    await pool.get("t2").getAccessToken();
    pool.get("t1");
    await pool.get("t3").getAccessToken();
    expect(events.filter((e) => e.type === "evicted").map((e) => e.tenant)).toEqual(["t2"]);
    expect(pool.size).toBe(2);
    clock.advance(10_000);
    pool.get("t4");
    expect(events.filter((e) => e.type === "evicted").map((e) => e.tenant)).toEqual(["t2", "t1", "t3"]);
    expect(pool.size).toBe(1);
  });

  it("never lets a manager go while it renews: its rotated refresh token must reach the store", async () => {
    const { pool, events, hold } = hosts(3, { maxTenants: 1 });
    const release = hold();
    const renewing = pool.get("t1").getAccessToken();
    pool.get("t2");
    expect(events.some((e) => e.type === "evicted" && e.tenant === "t1")).toBe(false);
    expect(pool.size).toBe(2);
    release();
    await renewing;
    pool.get("t3");
    expect(events.filter((e) => e.type === "evicted").map((e) => e.tenant)).toEqual(["t1", "t2"]);
  });

  /** A wait that ends only when aborted: close()'s deadline never comes. */
  const endless = (_ms: number, signal?: AbortSignal) =>
    new Promise<void>((_resolve, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));

  it("runs at most renewalsAtOnce renewals at once; the others wait their turn and all are served", async () => {
    let inFlight = 0;
    let most = 0;
    const { apps, pool } = hosts(6, {
      renewalsAtOnce: 2,
      manager: {
        fetch: async (request: Request) => {
          most = Math.max(most, ++inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          inFlight--;
          return apps.main.fetch(request);
        },
      },
    });
    const tokens = await Promise.all(
      ["t1", "t2", "t3", "t4", "t5", "t6"].map((t) => pool.get(t).getAccessToken()),
    );
    expect(new Set(tokens).size).toBe(6);
    expect(most).toBe(2);
    expect(poolDefaults.renewalsAtOnce).toBeGreaterThan(1);
    expect(() => createTenantPool({ rcAccessToken: () => "t", renewalsAtOnce: 0 })).toThrow(
      /renewalsAtOnce must be an integer/,
    );
  });

  it("a renewal waiting for the shared exchange budget holds no renewal slot: a refresh goes past it", async () => {
    let spent = false;
    const waits: (() => void)[] = [];
    const { pool, clock } = hosts(2, {
      renewalsAtOnce: 1,
      exchangeBudget: { take: () => (spent ? 20_000 : 0), blockFor: () => {} },
      manager: {
        timeoutMs: 60_000,
        // The budget's wait is held until the test lets it go.
        sleep: (_ms: number) => new Promise<void>((resolve) => waits.push(resolve)),
      },
    });
    await pool.get("t2").getAccessToken();
    spent = true;
    const waiting = pool.get("t1").getAccessToken();
    await vi.waitFor(() => expect(waits).toHaveLength(1), { interval: 1 });
    clock.advance(301_000);
    // t2 needs a refresh, not an exchange: it takes the slot t1 does not hold while it waits.
    expect(await pool.get("t2").getAccessToken()).toMatch(/^ey/);
    spent = false;
    waits.shift()?.();
    expect(await waiting).toMatch(/^ey/);
  });

  it("a renewal given up while it waits for a slot leaves the line without a token call", async () => {
    let calls = 0;
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const { pool, apps } = hosts(2, {
      renewalsAtOnce: 1,
      manager: {
        fetch: async (request: Request) => {
          calls++;
          await gate;
          return apps.main.fetch(request);
        },
      },
    });
    const first = pool.get("t1").getAccessToken();
    const caller = new AbortController();
    const second = pool.get("t2").getAccessToken({ signal: caller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    caller.abort(new Error("gave up"));
    await expect(second).rejects.toThrow("gave up");
    open();
    await first;
    expect(calls).toBe(1);
    expect(await pool.get("t2").getAccessToken()).toMatch(/^ey/);
  });

  it("close() waits for the renewals in flight to be stored, then refuses new work", async () => {
    const stores = new Map<string, TokenStore>();
    const { pool, hold } = hosts(2, {
      store: (tenant) => {
        const store = memoryStore();
        stores.set(tenant, store);
        return store;
      },
      manager: { sleep: endless },
    });
    const release = hold();
    const renewals = ["t1", "t2"].map((t) => pool.get(t).getAccessToken());
    const closed = pool.close();
    let settled = false;
    void closed.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    release();
    expect(await closed).toBe(true);
    await Promise.all(renewals);
    expect((await stores.get("t1")?.get())?.refreshToken).toBeTruthy();
    expect((await stores.get("t2")?.get())?.refreshToken).toBeTruthy();
    expect(() => pool.get("t1")).toThrow(expect.objectContaining({ code: "closed" }));
  });

  it("close() resolves false once its deadline passes with a renewal still in flight, which is given up: its caller hears closed", async () => {
    const { pool, hold } = hosts(1);
    const release = hold();
    const renewal = pool.get("t1").getAccessToken();
    expect(await pool.close({ timeoutMs: 1_000 })).toBe(false);
    release();
    await expect(renewal).rejects.toMatchObject({ code: "closed" });
  });

  it("refuses what it cannot use, with the fix", () => {
    expect(() => createTenantPool({ rcAccessToken: "one-token-for-all" as never })).toThrow(
      /rcAccessToken: a function \(tenant\) =>/,
    );
    expect(() => createTenantPool({ rcAccessToken: () => "t", maxTenants: 0 })).toThrow(
      /maxTenants must be an integer/,
    );
    expect(() => createTenantPool({ rcAccessToken: () => "t", tenants: 3 } as never)).toThrow(/tenants/);
  });

  it("logs an onEvent that throws and goes on", async () => {
    const { pool, lines } = hosts(1, {
      onEvent: () => {
        throw new Error("counter down");
      },
    });
    expect(await pool.get("t1").getAccessToken()).toMatch(/^ey/);
    expect(lines.join("\n")).toMatch(/onEvent failed: Error/);
  });

  it("after close(), refuses to hand out a manager, naming the tenant", async () => {
    const { pool } = hosts(1, { maxTenants: 1 });
    await pool.get("t1").getAccessToken();
    pool.get("t2");
    expect(await pool.close()).toBe(true);
    expect(() => pool.get("t1")).toThrow(/The tenant pool was closed: no manager for tenant "t1"/);
  });
});

describe("the stores a pool makes", () => {
  it("are closed with their tenant's manager, when it is let go and when the pool closes", async () => {
    const closed: string[] = [];
    const { pool, lines } = hosts(3, {
      maxTenants: 1,
      store: (tenant) => ({
        ...memoryStore(),
        close: async () => {
          closed.push(tenant);
          if (tenant === "t3") {
            throw new Error("connection gone");
          }
        },
      }),
    });
    await pool.get("t1").getAccessToken();
    await pool.get("t2").getAccessToken();
    await vi.waitFor(() => expect(closed).toEqual(["t1"]), { interval: 1 });
    await pool.get("t3").getAccessToken();
    expect(await pool.close()).toBe(true);
    expect([...closed].sort()).toEqual(["t1", "t2", "t3"]);
    expect(lines.join("\n")).toMatch(/A tenant's store could not be closed: Error/);
  });
});
