import { keptTokenBackoff } from "./backoff.js";
import { describe, EngageVoiceAuthError, VERBOSE } from "./errors.js";
import type { TokenObserver } from "./observer.js";
import { type CyclerEvent, type RenewalDeps, renewalOf } from "./renewal.js";
import { meets, type Need } from "./renewal-policy.js";
import { createSession, loggedOut } from "./session.js";
import { sharedRenewal } from "./shared-renewal.js";
import { rulesOf } from "./store-rules.js";
import { writesInTurn } from "./store-writes.js";
import type { TokenSet } from "./tokens.js";

export type { CyclerEvent } from "./renewal.js";
export type { Need } from "./renewal-policy.js";

export interface CyclerDeps extends RenewalDeps {
  /** Whose session this is: every set is stamped with it, and a stored set of another is refused. */
  tenant: string;
  /** The main account the tenant's session must be for, when the vendor bound it. */
  mainAccountId?: string | undefined;
  /** Told of each renewal's outcome, for a service's counters. */
  onEvent?: ((event: CyclerEvent) => void) | undefined;
  /** Told of each caller's wait for a renewal. */
  observer?: TokenObserver | undefined;
}

/**
 * Holds the token set and renews it, on demand only (no timers): one renewal at a time, shared by
 * every caller that needs one (Azure's token cycler; google-auth-library's refresh promise). The
 * policy, stated once:
 *
 * - A caller gets the held token at once while it may be sent (`isServable`). If it is past its
 *   refresh window (not `isFresh`), a renewal starts in the background, unless one runs or the
 *   backoff of failed renewals says not yet; a failed one keeps the token in use.
 * - A caller without a servable token waits for the renewal, within its own signal; once every
 *   caller that started it has given up, the renewal is given up too.
 * - A renewal reads the store first (under its lock when it has one: locking-store.ts holds those
 *   rules, which such a store carries; store-rules.ts, those of a store without), then refreshes, or exchanges when no refresh token may be presented; it stores the new
 *   set before anyone gets it.
 * - logout() starts a new generation: whatever a renewal of the old one brings is discarded.
 * - close() refuses new work at once, lets the renewals in flight end within its time, then gives up
 *   what is left: nothing is sent after it resolves.
 *
 * The session's state is explicit: what it holds and whose it is (session.ts), whether a renewal runs
 * (shared-renewal.ts), whether it is open (`phase`), and the backoff of failed renewals (backoff.ts).
 */
export function createTokenCycler(deps: CyclerDeps) {
  const { logger, clock, policy, tenant } = deps;
  const session = createSession(tenant, deps.mainAccountId, logger);
  const locking = rulesOf(deps.store, logger);
  const writes = writesInTurn();
  const backoff = keptTokenBackoff(deps.random);
  const emit = (event: CyclerEvent) => {
    try {
      deps.onEvent?.(event);
    } catch (error) {
      logger.error?.(`onEvent failed: ${describe(error)}`);
    }
  };
  const renewal = renewalOf(deps, { session, locking, writes, backoff, emit });
  // Closing refuses new work and lets work in flight end; once closed, nothing more is sent.
  let phase: "open" | "closing" | "closed" = "open";
  const closedError = () =>
    new EngageVoiceAuthError(
      "closed",
      VERBOSE
        ? `The token manager of tenant "${tenant}" was closed: it makes no more calls (create a new one)`
        : `tenant ${tenant}`,
    );

  /** Once close() is called, no new work: no renewal starts and nothing is sent. */
  const refuseIfClosed = () => {
    if (phase !== "open") {
      throw closedError();
    }
  };
  const shared = sharedRenewal({
    // The generation is read when the renewal starts: a logout() after it discards what it brings.
    run: (need, signal) => renewal(session.generation(), need, signal),
    clock,
    sleep: deps.sleep,
    emit,
    refuseIfClosed,
    closed: () => phase === "closed",
    closedError,
  });

  /** A caller's wait for the renewal that meets `need`, under the observer's `wait` when it has one. */
  const waitFor = (need: Need, signal?: AbortSignal | null): Promise<TokenSet> => {
    const observer = deps.observer;
    return observer?.wait
      ? observer.wait({ tenant }, () => shared.waitFor(need, signal))
      : shared.waitFor(need, signal);
  };

  /** The current token when it may still be sent (starting a renewal in its window), without waiting. */
  function servableToken(): string | undefined {
    // Every path that sends (client(), fetch, the middleware) asks here first: a closed session sends nothing.
    refuseIfClosed();
    const current = session.held();
    const now = clock.now();
    if (!current || !policy.isServable(current, now)) {
      return undefined;
    }
    if (!policy.isFresh(current, now) && !shared.running() && backoff.due(now)) {
      // Failures are logged where they happen; callers keep the current token meanwhile.
      shared.acquire({ kind: "fresh" }).catch(() => {});
    }
    return current.accessToken;
  }

  return {
    current: () => session.held(),
    acquire: shared.acquire,
    servableToken,
    /** Whether a renewal is under way. */
    renewing: shared.running,
    /** The signal of the renewal under way: its token calls end when it aborts. */
    renewalSignal: shared.signal,
    /**
     * A valid access token, waiting for a renewal only when the current one may not be sent; the
     * wait ends when `signal` aborts.
     */
    async accessToken(signal?: AbortSignal | null): Promise<string> {
      return servableToken() ?? (await waitFor({ kind: "fresh" }, signal)).accessToken;
    },
    /** The token to send again after the server called `sent` expired: a newer one, shared. */
    async renewedAfter(sent: string, signal?: AbortSignal | null): Promise<string> {
      const current = session.held();
      if (current && meets(policy, current, { kind: "newer", than: sent }, clock.now())) {
        return current.accessToken;
      }
      return (await waitFor({ kind: "newer", than: sent }, signal)).accessToken;
    },
    /**
     * Refuses new work, lets the renewals in flight store their outcome (their lock is released when
     * they end) within `timeoutMs`, then gives up what is left. Resolves with whether all ended.
     */
    async close(timeoutMs: number): Promise<boolean> {
      phase = "closing";
      const drained = await shared.drain(timeoutMs);
      // Past its time the renewal is given up: nothing more is sent once close() has resolved.
      shared.abort(closedError());
      phase = "closed";
      await writes.settled();
      return drained;
    },
    /** Forgets the tokens, in the store too; a renewal under way is discarded. */
    async logout(): Promise<void> {
      session.forget();
      locking.forget();
      backoff.reset();
      // Discarded: it sends nothing more, and close() still waits for it to let go of its lock.
      shared.abort(loggedOut(), true);
      await writes.write(async () => {
        try {
          await deps.store.clear();
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
