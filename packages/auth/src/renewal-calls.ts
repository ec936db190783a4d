// The token calls of a renewal and what follows each: a refresh (the set marked in flight first under
// a lock), the exchange that follows a refused refresh token, and the commit that stores a new set
// before anyone gets it. The renewal (renewal.ts) decides when; this decides how.
import {
  describe,
  NetworkError,
  RateLimitedError,
  ReauthRequiredError,
  RefreshRejectedError,
  VERBOSE,
} from "./errors.js";
import { BudgetSpent } from "./exchange-limiter.js";
import type { RenewalDeps, RenewalParts } from "./renewal.js";
import type { LockHold } from "./store.js";
import type { TokenSet } from "./tokens.js";

/** Writes `tokens` as the store's set, in turn with the other writes; nothing once logged out. */
async function writeInTurn(
  { store }: RenewalDeps,
  { session, writes }: RenewalParts,
  gen: number,
  tokens: TokenSet,
): Promise<void> {
  await writes
    .write(async () => {
      if (session.isCurrent(gen)) {
        await store.set(tokens);
      }
    })
    .catch((error: unknown) => {
      // A write that failed after a logout is the logout's business: the caller hears logged_out.
      if (session.isCurrent(gen)) {
        throw error;
      }
    });
  session.stillCurrent(gen);
}

export function renewalCalls(deps: RenewalDeps, parts: RenewalParts) {
  const { store, logger, policy, calls } = deps;
  const { session, locking, writes, backoff, emit } = parts;
  const budget = deps.slotsOfExchange;
  let warnedNoFreshTime = false;

  async function exchange(hold: LockHold | undefined, signal: AbortSignal): Promise<TokenSet> {
    // The parent token first: a tenant whose rcAccessToken fails takes no slot of a shared budget.
    const rcToken = await deps.parentToken();
    await locking.stillHeld(hold);
    signal.throwIfAborted();
    await budget.take();
    try {
      return await calls.exchange(rcToken, (session.held()?.sequence ?? 0) + 1);
    } catch (error) {
      if (error instanceof RateLimitedError) {
        budget.blockFor(error.retryAfterMs);
      }
      throw error;
    }
  }

  /** Stores a new set before anyone gets its access token, then hands it out. */
  async function commit(gen: number, answer: TokenSet, how: "exchange" | "refresh"): Promise<TokenSet> {
    const next = session.admit(answer);
    await writes.write(async () => {
      if (!session.isCurrent(gen)) {
        return;
      }
      try {
        await store.set(next);
        locking.stored(next);
      } catch (error) {
        // The new refresh token may be the only valid one: keep it in memory whatever the store says.
        logger.error?.(`The token store could not save the new tokens (${describe(error)}): kept in memory`);
      }
    });
    session.stillCurrent(gen);
    // A token with any fresh time serves every call of that time; only one with none renews per call.
    if (!warnedNoFreshTime && !policy.isFresh(next, next.obtainedAt)) {
      warnedNoFreshTime = true;
      logger.warn?.(
        VERBOSE
          ? "An access token arrived with no time left to use it once the clock's resolution and the round trip were taken off: it goes to the callers that waited for it, and the next call needs a token call of its own"
          : "An access token arrived with no fresh time: each call renews",
      );
    }
    session.hold(next);
    locking.saw(next);
    backoff.reset();
    logger.debug?.(
      `Renewed the tokens of tenant "${session.tenant}" (${how}), sequence ${next.sequence}, valid for ${Math.round((next.expiresAt - next.obtainedAt) / 1000)} s`,
    );
    emit({ type: how === "exchange" ? "exchanged" : "refreshed", sequence: next.sequence });
    try {
      await deps.onTokens?.(next);
    } catch (error) {
      logger.error?.(`onTokens failed: ${describe(error)}`);
    }
    return next;
  }

  /** A refresh, or the one exchange that follows a refused refresh token. */
  async function obtain(gen: number, hold: LockHold | undefined, signal: AbortSignal): Promise<TokenSet> {
    const current = session.held();
    if (!current?.refreshToken) {
      return commit(gen, await exchange(hold, signal), "exchange");
    }
    const inTurn = (set: TokenSet) => writeInTurn(deps, parts, gen, set);
    await locking.beforeRefresh(current, inTurn);
    await locking.stillHeld(hold);
    let next: TokenSet;
    try {
      next = await calls.refresh(current as TokenSet & { refreshToken: string });
    } catch (error) {
      if (error instanceof NetworkError && error.timedOut) {
        // The request went out on a live connection and the service was slow: it most likely spent
        // the token, and presenting it again would be refused (or read as reuse). The next try
        // exchanges; under a lock the in-flight mark stays, so every other holder does the same.
        session.spend(current);
        logger.warn?.(
          VERBOSE
            ? "The token refresh timed out: its refresh token may be spent and is not presented again; the next try exchanges"
            : "The token refresh timed out: the next try exchanges",
        );
        throw error;
      }
      if (!(error instanceof RefreshRejectedError)) {
        await locking.putBack(current, hold, inTurn);
        throw error;
      }
      // Spent or unknown: it must never be sent again. One exchange decides.
      session.spend(current);
      logger.warn?.(`${error.message}; exchanging the parent token again`);
      try {
        return await commit(gen, await exchange(hold, signal), "exchange");
      } catch (cause) {
        if (!session.isCurrent(gen) || locking.lostLock(cause) || cause instanceof BudgetSpent) {
          throw cause;
        }
        throw new ReauthRequiredError(error, cause);
      }
    }
    return commit(gen, next, "refresh");
  }

  return { obtain };
}
