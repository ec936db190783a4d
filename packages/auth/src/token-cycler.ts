import { backoffDelay } from "./backoff.js";
import {
  EngageVoiceAuthError,
  isTransient,
  RateLimitedError,
  ReauthRequiredError,
  RefreshRejectedError,
  safeCause,
  storeFailed,
} from "./errors.js";
import type { exchangeLimiter } from "./exchange-limiter.js";
import { isMarkOf, LockLost, markInFlight, stillHeld } from "./in-flight.js";
import type { RenewalPolicy } from "./renewal-policy.js";
import { type LockHold, readsLocally, type TokenStore } from "./store.js";
import type { tokenCalls } from "./token-calls.js";
import { fromStored, type TokenSet, withoutRefreshToken } from "./tokens.js";
import type { Clock, Logger } from "./types.js";

/** What the caller of a renewal needs from it. */
export type Need =
  /** Any token outside its refresh window (a first call, or a renewal in the window). */
  | { kind: "fresh" }
  /** A servable token other than `than`, which the server called expired. */
  | { kind: "newer"; than: string }
  /** A token call, whatever is held (`refresh()`). */
  | { kind: "new" };

export interface CyclerDeps {
  store: TokenStore;
  logger: Logger;
  clock: Clock;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  policy: RenewalPolicy;
  /** Further attempts after a transient failure when no servable token is left. */
  retries: number;
  calls: ReturnType<typeof tokenCalls>;
  limiter: ReturnType<typeof exchangeLimiter>;
  /** The parent-platform token for a new exchange. */
  parentToken: () => Promise<string>;
  onTokens: ((tokens: TokenSet) => void | Promise<void>) | undefined;
}

/** A log-safe description: this package's messages hold no secret; foreign ones are not quoted. */
export function describe(error: unknown): string {
  return error instanceof EngageVoiceAuthError ? error.message : String(safeCause(error));
}

/**
 * Holds the token set and renews it: one renewal at a time, shared by every caller that needs one
 * (Azure's token cycler; google-auth-library's refresh promise), under the store's lock when it has
 * one. It renews on demand only: no timers. With a lock, the rules of `in-flight.ts` keep a spent
 * refresh token from being presented by a holder that lost its lock or by the successor of one that
 * never stored its outcome.
 */
export function createTokenCycler(deps: CyclerDeps) {
  const { store, logger, clock, policy, calls, limiter } = deps;
  let tokens: TokenSet | undefined;
  let renewal: Promise<TokenSet> | undefined;
  // Bumped by logout(): a renewal that started before it must not store or hand out its result.
  let generation = 0;
  // Failures in a row while a token is kept, and when the next background try may start.
  let failures = 0;
  let nextAttemptAt = 0;
  let warnedNoFreshTime = false;
  // The set this manager knows its store holds (read there or written there): once it is gone from a
  // store with a lock, another process may have spent its refresh token meanwhile.
  let inStore: TokenSet | undefined;
  // Store writes run one after another, so a logout's clear always lands after an earlier set.
  let writes: Promise<unknown> = Promise.resolve();
  const write = (task: () => Promise<void>) => {
    const next = writes.then(task);
    writes = next.catch(() => {});
    return next;
  };

  const loggedOut = () =>
    new EngageVoiceAuthError(
      "logged_out",
      "logout() was called during the renewal: its tokens were discarded",
    );

  async function exchange(hold: LockHold | undefined): Promise<TokenSet> {
    limiter.check();
    const rcToken = await deps.parentToken();
    await stillHeld(hold);
    limiter.record();
    try {
      return await calls.exchange(rcToken, (tokens?.sequence ?? 0) + 1);
    } catch (error) {
      if (error instanceof RateLimitedError) {
        limiter.blockFor(error.retryAfterMs);
      }
      throw error;
    }
  }

  /** Stores a new set before anyone gets its access token, then hands it out. */
  async function commit(gen: number, next: TokenSet, how: "exchange" | "refresh"): Promise<TokenSet> {
    await write(async () => {
      if (gen !== generation) {
        return;
      }
      try {
        await store.set(next);
        inStore = next;
      } catch (error) {
        // The new refresh token may be the only valid one: keep it in memory whatever the store says.
        logger.error?.(`The token store could not save the new tokens (${describe(error)}): kept in memory`);
      }
    });
    if (gen !== generation) {
      throw loggedOut();
    }
    // A token with any fresh time serves every call of that time; only one with none renews per call.
    if (!warnedNoFreshTime && !policy.isFresh(next, next.obtainedAt)) {
      warnedNoFreshTime = true;
      logger.warn?.(
        "An access token arrived with no time left to use it once the clock's resolution and the round trip were taken off: it goes to the callers that waited for it, and the next call needs a token call of its own",
      );
    }
    tokens = next;
    failures = 0;
    nextAttemptAt = 0;
    logger.debug?.(
      `Renewed the tokens (${how}), sequence ${next.sequence}, valid for ${Math.round((next.expiresAt - next.obtainedAt) / 1000)} s`,
    );
    try {
      await deps.onTokens?.(next);
    } catch (error) {
      logger.error?.(`onTokens failed: ${describe(error)}`);
    }
    return next;
  }

  /** Writes `tokens` as the store's set, in turn with the other writes; nothing once logged out. */
  async function writeInTurn(gen: number, tokens: TokenSet): Promise<void> {
    await write(async () => {
      if (gen === generation) {
        await store.set(tokens);
      }
    });
    if (gen !== generation) {
      throw loggedOut();
    }
  }

  /** A refresh, or the one exchange that follows a refused refresh token. */
  async function obtain(gen: number, hold: LockHold | undefined): Promise<TokenSet> {
    const current = tokens;
    if (!current?.refreshToken) {
      return commit(gen, await exchange(hold), "exchange");
    }
    if (store.lock) {
      await writeInTurn(gen, markInFlight(current)).catch((error: unknown) => {
        if (gen !== generation) {
          throw error;
        }
        throw storeFailed(
          "The token store could not mark the refresh in flight: no token call was made",
          error,
        );
      });
    }
    await stillHeld(hold);
    let next: TokenSet;
    try {
      next = await calls.refresh(current as TokenSet & { refreshToken: string });
    } catch (error) {
      if (!(error instanceof RefreshRejectedError)) {
        await putBack(gen, current, hold);
        throw error;
      }
      // Spent or unknown: it must never be sent again. One exchange decides.
      if (tokens === current) {
        tokens = withoutRefreshToken(current);
      }
      logger.warn?.(`${error.message}; exchanging the parent token again`);
      try {
        return await commit(gen, await exchange(hold), "exchange");
      } catch (cause) {
        if (gen !== generation || cause instanceof LockLost) {
          throw cause;
        }
        throw new ReauthRequiredError(error, cause);
      }
    }
    return commit(gen, next, "refresh");
  }

  /**
   * After a refresh that failed without a refusal, stores the set with its refresh token again, so
   * the next renewal here or elsewhere follows the usual rules rather than the mark's exchange. Only
   * while the lock is ours: a successor may have found the mark and acted on it.
   */
  async function putBack(gen: number, current: TokenSet, hold: LockHold | undefined): Promise<void> {
    if (!store.lock) {
      return;
    }
    const ours = await stillHeld(hold).then(
      () => true,
      () => false,
    );
    if (!ours) {
      return;
    }
    await writeInTurn(gen, current).catch((error: unknown) => {
      logger.error?.(
        `The token store could not take back the in-flight mark (${describe(error)}): the next renewal exchanges`,
      );
    });
  }

  /** Whether `held` already meets `need`, so no token call is needed. */
  function meets(held: TokenSet | undefined, need: Need, now: number): boolean {
    if (!held || need.kind === "new") {
      return false;
    }
    return need.kind === "fresh"
      ? policy.isFresh(held, now)
      : held.accessToken !== need.than && policy.isServable(held, now);
  }

  async function renew(gen: number, need: Need, hold: LockHold | undefined): Promise<TokenSet> {
    let stored: TokenSet | undefined;
    let read = false;
    try {
      stored = fromStored(await store.get());
      read = true;
    } catch (error) {
      logger.error?.(`The token store could not be read: ${describe(error)}`);
    }
    if (gen !== generation) {
      throw loggedOut();
    }
    // Another manager on a shared store may have renewed already. Which set is newer is decided by
    // `sequence`, not by expiry times: those are on each process's own clock, which may be off.
    if (stored && stored.accessToken !== tokens?.accessToken && stored.sequence >= (tokens?.sequence ?? 0)) {
      tokens = stored;
    } else if (store.lock && stored && isMarkOf(stored, tokens)) {
      logger.warn?.(
        "A renewal that never came back left the refresh token marked in flight: exchanging again",
      );
      tokens = stored;
    } else if (store.lock && read && !stored && tokens?.refreshToken && tokens === inStore) {
      logger.warn?.("The token set is gone from the store, its refresh token maybe spent: exchanging again");
      tokens = withoutRefreshToken(tokens);
    }
    if (stored && stored.accessToken === tokens?.accessToken) {
      inStore = tokens;
    }
    if (tokens && meets(tokens, need, clock.now())) {
      return tokens;
    }
    for (let attempt = 0; ; attempt++) {
      // A logout during a wait between attempts ends the renewal before another token call.
      if (gen !== generation) {
        throw loggedOut();
      }
      try {
        return await obtain(gen, hold);
      } catch (error) {
        if (gen !== generation || error instanceof LockLost) {
          throw error;
        }
        const current = tokens;
        const avoided = need.kind === "newer" ? need.than : undefined;
        const keep = current && current.accessToken !== avoided && policy.isServable(current, clock.now());
        // Across renewals while a token is kept, per attempt for a caller that waits.
        const delay = backoffDelay(
          keep ? failures++ : attempt,
          deps.random,
          (error as RateLimitedError).retryAfterMs,
        );
        if (keep) {
          nextAttemptAt = clock.now() + delay;
          logger.warn?.(
            `${describe(error)}: the current token stays in use; next try in ${Math.round(delay)} ms`,
          );
          throw error;
        }
        if (!isTransient(error) || attempt >= deps.retries) {
          throw error;
        }
        logger.warn?.(`${describe(error)}: trying again in ${Math.round(delay)} ms`);
        await deps.sleep(delay);
      }
    }
  }

  /**
   * Runs a renewal under the store's lock. A lock lost before a token call (nothing was sent) is taken
   * again once, and the store read again: the successor's set is most likely there by then.
   */
  async function underLock(run: (hold?: LockHold) => Promise<TokenSet>): Promise<TokenSet> {
    const lock = (task: typeof run) => (store as Required<Pick<TokenStore, "lock">>).lock<TokenSet>(task);
    try {
      return await lock(run);
    } catch (error) {
      if (!(error instanceof LockLost)) {
        throw error;
      }
      logger.warn?.(`${error.message}; reading the store again under the lock`);
      return lock(run);
    }
  }

  /**
   * A newer set in a locking store that reads locally and already meets `need`, read without the
   * lock: a process that resumes a valid session (each `engage-voice token`) takes no lock and makes no
   * token call. Anything else, a failed read too, is decided under the lock, where the store is read
   * again.
   */
  async function storedWithoutLock(gen: number, need: Need): Promise<TokenSet | undefined> {
    let stored: TokenSet | undefined;
    try {
      stored = fromStored(await store.get());
    } catch {
      return undefined;
    }
    if (
      gen !== generation ||
      !stored ||
      stored.accessToken === tokens?.accessToken ||
      stored.sequence < (tokens?.sequence ?? 0) ||
      !meets(stored, need, clock.now())
    ) {
      return undefined;
    }
    tokens = stored;
    inStore = stored;
    return stored;
  }

  /** The renewal under way, or a new one for `need`. */
  function acquire(need: Need): Promise<TokenSet> {
    if (renewal) {
      return renewal;
    }
    const gen = generation;
    const run = (hold?: LockHold) => renew(gen, need, hold);
    const locked = async () => (await storedWithoutLock(gen, need)) ?? underLock(run);
    const started: Promise<TokenSet> = (
      store.lock ? (readsLocally(store) ? locked() : underLock(run)) : run()
    ).finally(() => {
      if (renewal === started) {
        renewal = undefined;
      }
    });
    renewal = started;
    return started;
  }

  /** The current token when it may still be sent (starting a renewal in its window), without waiting. */
  function servableToken(): string | undefined {
    const current = tokens;
    const now = clock.now();
    if (!current || !policy.isServable(current, now)) {
      return undefined;
    }
    if (!policy.isFresh(current, now) && !renewal && now >= nextAttemptAt) {
      // Failures are logged where they happen; callers keep the current token meanwhile.
      acquire({ kind: "fresh" }).catch(() => {});
    }
    return current.accessToken;
  }

  return {
    current: () => tokens,
    acquire,
    servableToken,
    /** A valid access token, waiting for a renewal only when the current one may not be sent. */
    async accessToken(): Promise<string> {
      return servableToken() ?? (await acquire({ kind: "fresh" })).accessToken;
    },
    /** The token to send again after the server called `sent` expired: a newer one, shared. */
    async renewedAfter(sent: string): Promise<string> {
      const current = tokens;
      if (current && meets(current, { kind: "newer", than: sent }, clock.now())) {
        return current.accessToken;
      }
      return (await acquire({ kind: "newer", than: sent })).accessToken;
    },
    /** Forgets the tokens, in the store too; a renewal under way is discarded. */
    async logout(): Promise<void> {
      generation++;
      tokens = undefined;
      renewal = undefined;
      failures = 0;
      nextAttemptAt = 0;
      await write(async () => {
        try {
          await store.clear();
        } catch (error) {
          // A custom store's message may quote what it held.
          throw new EngageVoiceAuthError("store_failed", "The token store could not be cleared", {
            cause: error,
          });
        }
      });
    },
  };
}

export type TokenCycler = ReturnType<typeof createTokenCycler>;
