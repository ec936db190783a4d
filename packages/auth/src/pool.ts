import { describe, EngageVoiceAuthError, VERBOSE } from "./errors.js";
import { type ExchangeBudget, exchangeBudget } from "./exchange-limiter.js";
import { type TokenEvent, type TokenManager, type TokenManagerOptions, wireManager } from "./manager.js";
import { closeTimeoutOf, forTenant, type ManagerConfig, readManagerConfig } from "./manager-config.js";
import { integer, invalid, optionalFunction, optionsOf, refuseUnknown } from "./options.js";
import { renewalQueue, sharedSlots } from "./pool-renewals.js";
import { renewalSlots } from "./renewal-slots.js";
import type { TokenStore } from "./store.js";
import { requireTenant } from "./tenant.js";

/** What every tenant's manager shares: all of `createTokenManager`'s options but the per-tenant ones. */
export type SharedManagerOptions = Omit<
  TokenManagerOptions,
  "tenant" | "rcAccessToken" | "store" | "onEvent" | "mainAccountId"
>;

export interface TenantPoolOptions {
  /** The tenant's parent-platform token; asked for again for every new exchange of that tenant. */
  rcAccessToken: (tenant: string) => string | Promise<string>;
  /**
   * The tenant's store, made once per manager: `(tenant) => redisStore({ client, tenant })`. Default: a
   * memory store per manager, so an evicted tenant exchanges again on its next use.
   */
  store?: (tenant: string) => TokenStore;
  /**
   * The main account each tenant's session must be for (`createTokenManager`'s `mainAccountId`):
   * a tenant whose answers or stored set name another is refused with a `TenantMismatchError`, so a
   * tenant id mapped to two customers' credentials fails loudly instead of mixing their data.
   */
  mainAccountId?: (tenant: string) => string | undefined;
  /** The options of every tenant's manager (baseUrl, fetch, timeoutMs, logger, clock...). */
  manager?: SharedManagerOptions;
  /** The most managers held at once; past it the least recently used idle one goes. */
  maxTenants?: number;
  /** A manager unused this long goes when the pool next hands one out. */
  idleMs?: number;
  /**
   * One exchange budget for every tenant of the pool, on top of each tenant's own limit
   * (`manager.exchangesPerMinute`). A renewal that finds it spent lets go of its store's lock and
   * waits for the next slot, if it comes within the manager's `timeoutMs`; past that its callers get a
   * `RateLimitedError` at once, whose `retryAfterMs` says when the next slot is. A number is a budget
   * a minute for this process; `redisExchangeBudget({ client, perMinute })` of
   * `@engage-voice/store-redis` is one budget for every process on that Redis.
   */
  exchangeBudget?: number | ExchangeBudget;
  /**
   * How many tenants' renewals run at once (default `poolDefaults.renewalsAtOnce`); the others wait
   * their turn, within their callers' deadlines, before they take their store's lock. Keeps a cold
   * start of thousands of tenants from opening thousands of connections to the token host at once.
   */
  renewalsAtOnce?: number;
  /** Told of every tenant's renewals and of the pool's own doings, without secrets. */
  onEvent?: (event: PoolEvent) => void;
}

/** What a pool tells `onEvent`: each manager's events, and when one is created or evicted. */
export type PoolEvent = TokenEvent | { type: "created" | "evicted"; tenant: string };

/** The pool's defaults, for docs and tests to read rather than restate. */
export const poolDefaults = { maxTenants: 10_000, idleMs: 15 * 60_000, renewalsAtOnce: 32 } as const;

export interface TenantPool {
  /** The tenant's manager, created on first use and shared by every caller of this process. */
  get(tenant: string): TokenManager;
  /** How many managers the pool holds now. */
  readonly size: number;
  /**
   * Closes every manager (each lets its renewal in flight store its outcome and release its lock,
   * within `timeoutMs` overall), then refuses new work. Resolves with `true` when nothing was left.
   */
  close(options?: { timeoutMs?: number }): Promise<boolean>;
}

interface Held {
  manager: TokenManager;
  /** The store the pool made for the tenant: closed with the manager. */
  store: TokenStore | undefined;
  renewing: () => boolean;
  usedAt: number;
}

const poolOptionNames: (keyof TenantPoolOptions)[] = [
  "rcAccessToken",
  "store",
  "mainAccountId",
  "manager",
  "maxTenants",
  "idleMs",
  "exchangeBudget",
  "renewalsAtOnce",
  "onEvent",
];

/** The pool's options, checked once: the shared manager options read on a template. */
function readPoolOptions(options: TenantPoolOptions) {
  const given = optionsOf(options, "createTenantPool()", true);
  if (typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined") {
    refuseUnknown(given, poolOptionNames, "createTenantPool()");
  }
  if (typeof given.rcAccessToken !== "function") {
    throw invalid(
      VERBOSE
        ? "createTenantPool() needs rcAccessToken: a function (tenant) => that tenant's RingCentral access token"
        : "rcAccessToken",
    );
  }
  // Read once, on a template: every tenant's manager shares these; forTenant() adds the tenant's own.
  const template = readManagerConfig({
    ...optionsOf(given.manager, "createTenantPool()'s manager"),
    rcAccessToken: "checked-per-tenant",
  });
  return {
    parentTokenOf: given.rcAccessToken,
    storeOf: optionalFunction("store", given.store),
    mainAccountOf: optionalFunction("mainAccountId", given.mainAccountId),
    onEvent: optionalFunction("onEvent", given.onEvent),
    template,
    maxTenants: integer("maxTenants", given.maxTenants, poolDefaults.maxTenants, 1, 10_000_000),
    idleMs: integer("idleMs", given.idleMs, poolDefaults.idleMs, 0, 7 * 24 * 3_600_000),
    budget: exchangeBudgetOf(given.exchangeBudget, template),
    queue: renewalQueue(
      renewalSlots(integer("renewalsAtOnce", given.renewalsAtOnce, poolDefaults.renewalsAtOnce, 1, 100_000)),
      template.timeoutMs,
      template.sleep,
    ),
  };
}

/**
 * Token managers for many tenants in one process: one per tenant, made on first use from the
 * per-tenant functions, let go when idle past `idleMs` or beyond `maxTenants` (never while it
 * renews: a rotated refresh token must reach its store). No timer: idle managers are let go when the
 * pool next hands one out. One tenant's failures (a revoked parent token, its own rate limit) stay
 * its own.
 */
export function createTenantPool(options: TenantPoolOptions): TenantPool {
  const { parentTokenOf, storeOf, mainAccountOf, onEvent, template, maxTenants, idleMs, budget, queue } =
    readPoolOptions(options);
  const { clock, logger } = template;
  const exchange = budget && sharedSlots(budget, logger);
  const tell = (event: PoolEvent) => {
    try {
      onEvent?.(event);
    } catch (error) {
      logger.error?.(`onEvent failed: ${describe(error)}`);
    }
  };
  // A Map iterates in insertion order: re-inserting on each use keeps the least recently used first.
  const held = new Map<string, Held>();
  const closing = new Set<Promise<unknown>>();
  let closed = false;

  function create(tenant: string): Held {
    const store = storeOf?.(tenant);
    const mainAccountId = mainAccountOf?.(tenant);
    const config = forTenant(template, {
      tenant,
      ...(mainAccountId === undefined ? {} : { mainAccountId }),
      rcAccessToken: () => parentTokenOf(tenant),
      ...(store ? { store } : {}),
      onEvent: tell,
    });
    const { manager, renewing } = wireManager(config, { ...(exchange ? { exchange } : {}), queue });
    tell({ type: "created", tenant });
    return { manager, store, renewing, usedAt: clock.now() };
  }

  /** Closes a manager, then the store the pool made for it, once its renewal has stored its outcome. */
  async function release(entry: Held, timeoutMs?: number): Promise<boolean> {
    const drained = await entry.manager.close(timeoutMs === undefined ? undefined : { timeoutMs });
    try {
      await entry.store?.close?.();
    } catch (error) {
      logger.error?.(`A tenant's store could not be closed: ${describe(error)}`);
    }
    return drained;
  }

  function evict(tenant: string, entry: Held): void {
    held.delete(tenant);
    const done = release(entry).finally(() => closing.delete(done));
    closing.add(done);
    logger.debug?.(
      `Tenant "${tenant}" let go after ${Math.round((clock.now() - entry.usedAt) / 1000)} s idle`,
    );
    tell({ type: "evicted", tenant });
  }

  /**
   * Lets go of idle managers from the least recently used, and of the oldest beyond the bound; never
   * of the one being handed out, which is the most recently used.
   */
  function sweep(now: number, handedOut: string): void {
    for (const [tenant, entry] of held) {
      if (tenant === handedOut) {
        return;
      }
      const over = held.size > maxTenants;
      if (!over && now - entry.usedAt < idleMs) {
        return;
      }
      // One that renews stays; the next, more recently used, may be idle or beyond the bound too.
      if (!entry.renewing()) {
        evict(tenant, entry);
      }
    }
  }

  return {
    get(tenant) {
      if (closed) {
        throw new EngageVoiceAuthError(
          "closed",
          VERBOSE ? `The tenant pool was closed: no manager for tenant "${requireTenant(tenant)}"` : "pool",
        );
      }
      const id = requireTenant(tenant);
      const now = clock.now();
      let entry = held.get(id);
      if (entry) {
        held.delete(id);
        entry.usedAt = now;
      } else {
        entry = create(id);
      }
      held.set(id, entry);
      sweep(now, id);
      return entry.manager;
    },
    get size() {
      return held.size;
    },
    async close(options) {
      const timeoutMs = closeTimeoutOf(options);
      closed = true;
      const all = [...held.values()].map((entry) => release(entry, timeoutMs));
      held.clear();
      const results = await Promise.all([...all, ...closing]);
      return results.every((drained) => drained !== false);
    },
  };
}

/** The pool's shared exchange budget; `undefined` leaves each tenant its own alone. */
function exchangeBudgetOf(value: unknown, { clock }: ManagerConfig): ExchangeBudget | undefined {
  if (value === undefined) {
    return undefined;
  }
  const budget =
    typeof value === "number"
      ? exchangeBudget(integer("exchangeBudget", value, 0, 1, 100_000), clock)
      : value;
  if (
    typeof budget !== "object" ||
    budget === null ||
    typeof (budget as ExchangeBudget).take !== "function" ||
    typeof (budget as ExchangeBudget).blockFor !== "function"
  ) {
    throw invalid(
      VERBOSE
        ? "exchangeBudget must be a number of exchanges a minute for this process, or a budget shared across processes (redisExchangeBudget({ client, perMinute }))"
        : "exchangeBudget",
    );
  }
  return budget as ExchangeBudget;
}
