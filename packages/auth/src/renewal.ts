// One renewal, from the read of the store to the new set handed out: what the session holds is
// reconciled with the store, then a refresh or an exchange is tried, again while the failure is
// transient and a caller waits. The token cycler runs one at a time and shares it (token-cycler.ts).
import type { KeptTokenBackoff } from "./backoff.js";
import { backoffDelay } from "./backoff.js";
import { describe, isTransient, type RateLimitedError } from "./errors.js";
import { BudgetSpent, type ExchangeSlots } from "./exchange-limiter.js";
import { renewalCalls } from "./renewal-calls.js";
import { meets, type Need, type RenewalPolicy } from "./renewal-policy.js";
import type { Session } from "./session.js";
import type { LockHold, TokenStore } from "./store.js";
import type { StoreRules } from "./store-rules.js";
import type { WritesInTurn } from "./store-writes.js";
import type { tokenCalls } from "./token-calls.js";
import { fromStored, type TokenSet } from "./tokens.js";
import type { Clock, Logger } from "./types.js";

/** What a renewal did, without secrets. */
export type CyclerEvent =
  | { type: "exchanged" | "refreshed"; sequence: number }
  | { type: "failed"; code: string }
  | { type: "waited"; ms: number };

export interface RenewalDeps {
  store: TokenStore;
  logger: Logger;
  clock: Clock;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  policy: RenewalPolicy;
  /** Further attempts after a transient failure when no servable token is left. */
  retries: number;
  calls: ReturnType<typeof tokenCalls>;
  /** The exchange's budgets: the tenant's own limit, and a pool's shared budget. */
  slotsOfExchange: ExchangeSlots;
  /** The parent-platform token for a new exchange. */
  parentToken: () => Promise<string>;
  /** A pool's line for its tenants' renewals (pool-renewals.ts); a lone manager's runs at once. */
  queue?: RenewalQueue | undefined;
  onTokens: ((tokens: TokenSet) => void | Promise<void>) | undefined;
}

/** A pool's line for renewals: runs `attempt` in turn, told of what fails for the session's events. */
export type RenewalQueue = (
  attempt: () => Promise<TokenSet>,
  signal: AbortSignal,
  emit: (event: CyclerEvent) => void,
) => Promise<TokenSet>;

/** What a renewal shares with its session. */
export interface RenewalParts {
  session: Session;
  locking: StoreRules;
  writes: WritesInTurn;
  backoff: KeptTokenBackoff;
  emit: (event: CyclerEvent) => void;
}

/**
 * After a failed token call: thrown on when a token is kept (the session serves it and backs off
 * across renewals), when nothing more can help, or when every caller gave up; otherwise the wait
 * before the next attempt.
 */
function afterFailure(
  deps: RenewalDeps,
  { session, locking, backoff, emit }: RenewalParts,
  failed: { gen: number; need: Need; signal: AbortSignal; attempt: number },
  error: unknown,
): number {
  const { logger, clock, policy } = deps;
  const { gen, need, signal, attempt } = failed;
  // A spent shared budget is waited for outside the lock (renewalOf, below), and is no failure yet.
  if (error instanceof BudgetSpent) {
    throw error;
  }
  emit({ type: "failed", code: String((error as { code?: unknown }).code) });
  if (!session.isCurrent(gen) || locking.lostLock(error) || signal.aborted) {
    throw error;
  }
  const current = session.held();
  const avoided = need.kind === "newer" ? need.than : undefined;
  const retryAfterMs = (error as RateLimitedError).retryAfterMs;
  if (current && current.accessToken !== avoided && policy.isServable(current, clock.now())) {
    const delay = backoff.failed(clock.now(), retryAfterMs);
    logger.warn?.(`${describe(error)}: the current token stays in use; next try in ${Math.round(delay)} ms`);
    throw error;
  }
  if (!isTransient(error) || attempt >= deps.retries) {
    throw error;
  }
  const delay = backoffDelay(attempt, deps.random, retryAfterMs);
  logger.warn?.(`${describe(error)}: trying again in ${Math.round(delay)} ms`);
  return delay;
}

/** Runs one renewal of generation `gen` for `need`, given up when `signal` aborts. */
export function renewalOf(deps: RenewalDeps, parts: RenewalParts) {
  const { store, logger, clock, policy } = deps;
  const { session, locking, emit } = parts;
  const { obtain } = renewalCalls(deps, parts);

  /**
   * Reads the store (under its lock, when it has one) and holds what it says: another manager on a
   * shared store may have renewed already. The set held when it already meets `need`.
   */
  async function reconcile(gen: number, need: Need): Promise<TokenSet | undefined> {
    let stored: TokenSet | undefined;
    let read = false;
    try {
      stored = fromStored(await store.get());
      read = true;
    } catch (error) {
      logger.error?.(`The token store could not be read: ${describe(error)}`);
    }
    session.checkStored(stored);
    session.stillCurrent(gen);
    const held = locking.afterRead(session.held(), stored, read);
    session.hold(held);
    if (stored && held && stored.accessToken === held.accessToken) {
      locking.stored(held);
    }
    return held && meets(policy, held, need, clock.now()) ? held : undefined;
  }

  /** One renewal for `need`, of the session's generation `gen`, under `hold` when the store locks. */
  async function renew(gen: number, need: Need, signal: AbortSignal, hold?: LockHold): Promise<TokenSet> {
    const ready = await reconcile(gen, need);
    if (ready) {
      return ready;
    }
    for (let attempt = 0; ; attempt++) {
      // A logout during a wait between attempts ends the renewal before another token call.
      session.stillCurrent(gen);
      try {
        return await obtain(gen, hold, signal);
      } catch (error) {
        const delay = afterFailure(deps, parts, { gen, need, signal, attempt }, error);
        // Every caller that waited may give up meanwhile: then the wait ends, and no other try follows.
        await deps.sleep(delay, signal).catch(() => {
          throw error;
        });
      }
    }
  }

  /**
   * A newer set in a locking store that offers `peek` and already meets `need`, read without the
   * lock: a process that resumes a valid session (each `engage-voice token`), or whose set another
   * process has just renewed, takes no lock and makes no token call. Anything else, a failed read too,
   * is decided under the lock, where the store is read again.
   */
  async function storedWithoutLock(gen: number, need: Need): Promise<TokenSet | undefined> {
    let stored: TokenSet | undefined;
    try {
      stored = fromStored(await store.peek?.());
    } catch {
      return undefined;
    }
    session.checkStored(stored);
    if (
      !session.isCurrent(gen) ||
      !stored ||
      stored.accessToken === session.held()?.accessToken ||
      !locking.isNews(stored) ||
      !meets(policy, stored, need, clock.now())
    ) {
      return undefined;
    }
    session.hold(stored);
    locking.stored(stored);
    return stored;
  }

  /**
   * One renewal for `need`, under the store's lock when it has one (after a peek without it when the
   * store offers one), in a pool's line when the manager is a pool's.
   */
  return function renewal(gen: number, need: Need, signal: AbortSignal): Promise<TokenSet> {
    const run = (hold?: LockHold) => renew(gen, need, signal, hold);
    const attempt = async () => {
      if (!locking.locks) {
        return run();
      }
      const peeked = locking.readsWithoutLock ? await storedWithoutLock(gen, need) : undefined;
      return peeked ?? locking.underLock(run);
    };
    return deps.queue ? deps.queue(attempt, signal, emit) : attempt();
  };
}
