import { backoffDelay } from "./backoff.js";
import {
  describe,
  EngageVoiceAuthError,
  isTransient,
  NetworkError,
  RateLimitedError,
  ReauthRequiredError,
  RefreshRejectedError,
} from "./errors.js";
import { BudgetSpent, type ExchangeSlots } from "./exchange-limiter.js";
import { LockLost, lockingStore, stillHeld } from "./locking-store.js";
import type { RenewalPolicy } from "./renewal-policy.js";
import { type RenewalSlots, unbounded } from "./renewal-slots.js";
import type { LockHold, TokenStore } from "./store.js";
import { answeredForAnother, storedForAnother, storedForAnotherAccount } from "./tenant.js";
import type { tokenCalls } from "./token-calls.js";
import { boundTo, fromStored, type TokenSet, withoutRefreshToken } from "./tokens.js";
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
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  policy: RenewalPolicy;
  /** Further attempts after a transient failure when no servable token is left. */
  retries: number;
  calls: ReturnType<typeof tokenCalls>;
  /** The exchange's budgets: the tenant's own limit, and a pool's shared budget. */
  slotsOfExchange: ExchangeSlots;
  /** How long a renewal waits, outside its lock, for a slot of a spent shared budget. */
  maxBudgetWaitMs: number;
  /** The parent-platform token for a new exchange. */
  parentToken: () => Promise<string>;
  onTokens: ((tokens: TokenSet) => void | Promise<void>) | undefined;
  /** Whose session this is: every set is stamped with it, and a stored set of another is refused. */
  tenant: string;
  /** The main account the tenant's session must be for, when the vendor bound it. */
  mainAccountId?: string | undefined;
  /** A pool's bound on the renewals of all its tenants at once; none for a lone manager. */
  slots?: RenewalSlots | undefined;
  /** Told of each renewal's outcome, for a service's counters. */
  onEvent?: ((event: CyclerEvent) => void) | undefined;
}

/** What a renewal did, without secrets. */
export type CyclerEvent =
  | { type: "exchanged" | "refreshed"; sequence: number }
  | { type: "failed"; code: string }
  | { type: "waited"; ms: number };

/** A renewal under way, with what its callers need to give it up. */
interface Running {
  promise: Promise<TokenSet>;
  /** Aborted once every caller that waited for it has given up: it then sends and waits no more. */
  controller: AbortController;
  waiters: number;
  /**
   * Whether a waiting caller started it. One started in the refresh window, or by `refresh()`, runs
   * to its end even when a caller that joined it gives up: its answer may carry a rotated token.
   */
  abandonable: boolean;
  /** It ended after close() had resolved: its callers send nothing with what it brought. */
  late: boolean;
}

/**
 * Holds the token set and renews it: one renewal at a time, shared by every caller that needs one
 * (Azure's token cycler; google-auth-library's refresh promise), under the store's lock when it has
 * one. It renews on demand only: no timers. This is the session: its tokens, the shared renewal,
 * logout's generation and failures; with a lock, the rules of `locking-store.ts` keep a spent refresh
 * token from being presented by a holder that lost its lock or by the successor of one that never
 * stored its outcome.
 */
export function createTokenCycler(deps: CyclerDeps) {
  const { store, logger, clock, policy, calls, tenant } = deps;
  const budget = deps.slotsOfExchange;
  let tokens: TokenSet | undefined;
  let running: Running | undefined;
  // Every renewal not yet ended, the one logout() discarded too: close() waits for each (its lock).
  const inFlight = new Set<Promise<unknown>>();
  // Closing refuses new work and lets work in flight end; once closed, nothing more is sent.
  let phase: "open" | "closing" | "closed" = "open";
  // Bumped by logout(): a renewal that started before it must not store or hand out its result.
  let generation = 0;
  // Failures in a row while a token is kept, and when the next background try may start.
  let failures = 0;
  let nextAttemptAt = 0;
  let warnedNoFreshTime = false;
  const locking = lockingStore(store, logger);
  // Store writes run one after another, so a logout's clear always lands after an earlier set.
  let writes: Promise<unknown> = Promise.resolve();
  const write = (task: () => Promise<void>) => {
    const next = writes.then(task);
    writes = next.catch(() => {});
    return next;
  };

  const emit = (event: CyclerEvent) => {
    try {
      deps.onEvent?.(event);
    } catch (error) {
      logger.error?.(`onEvent failed: ${describe(error)}`);
    }
  };

  const closedError = () =>
    new EngageVoiceAuthError(
      "closed",
      `The token manager of tenant "${tenant}" was closed: it makes no more calls (create a new one)`,
    );

  /** The main account the session is for: bound by the vendor, or learnt from its own answers. */
  let account = deps.mainAccountId;

  /** A stored set, refused loudly when another tenant's credentials, or another account's, obtained it. */
  function ours(stored: TokenSet | undefined): TokenSet | undefined {
    const error =
      stored && stored.tenant !== tenant
        ? storedForAnother(tenant, stored.tenant)
        : stored && isAnotherAccount(stored.mainAccountId)
          ? storedForAnotherAccount(tenant)
          : undefined;
    if (error) {
      logger.error?.(error.message);
      throw error;
    }
    return stored;
  }

  const isAnotherAccount = (named: unknown) =>
    account !== undefined && named !== undefined && named !== account;

  const loggedOut = () =>
    new EngageVoiceAuthError(
      "logged_out",
      "logout() was called during the renewal: its tokens were discarded",
    );

  async function exchange(hold: LockHold | undefined, signal: AbortSignal): Promise<TokenSet> {
    // The parent token first: a tenant whose rcAccessToken fails takes no slot of a shared budget.
    const rcToken = await deps.parentToken();
    await stillHeld(hold);
    signal.throwIfAborted();
    await budget.take();
    try {
      return await calls.exchange(rcToken, (tokens?.sequence ?? 0) + 1);
    } catch (error) {
      if (error instanceof RateLimitedError) {
        budget.blockFor(error.retryAfterMs);
      }
      throw error;
    }
  }

  /** Stores a new set before anyone gets its access token, then hands it out. */
  async function commit(gen: number, answer: TokenSet, how: "exchange" | "refresh"): Promise<TokenSet> {
    // The tenant stays when its parent token rotates; the account an answer is for must stay too.
    if (isAnotherAccount(answer.mainAccountId)) {
      const error = answeredForAnother(tenant);
      logger.error?.(error.message);
      throw error;
    }
    account ??= answer.mainAccountId;
    const next = boundTo(answer, tenant);
    await write(async () => {
      if (gen !== generation) {
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
    locking.saw(next);
    failures = 0;
    nextAttemptAt = 0;
    logger.debug?.(
      `Renewed the tokens of tenant "${tenant}" (${how}), sequence ${next.sequence}, valid for ${Math.round((next.expiresAt - next.obtainedAt) / 1000)} s`,
    );
    emit({ type: how === "exchange" ? "exchanged" : "refreshed", sequence: next.sequence });
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
    }).catch((error: unknown) => {
      // A write that failed after a logout is the logout's business: the caller hears logged_out.
      if (gen === generation) {
        throw error;
      }
    });
    if (gen !== generation) {
      throw loggedOut();
    }
  }

  /** A refresh, or the one exchange that follows a refused refresh token. */
  async function obtain(gen: number, hold: LockHold | undefined, signal: AbortSignal): Promise<TokenSet> {
    const current = tokens;
    if (!current?.refreshToken) {
      return commit(gen, await exchange(hold, signal), "exchange");
    }
    const inTurn = (set: TokenSet) => writeInTurn(gen, set);
    await locking.beforeRefresh(current, inTurn);
    await stillHeld(hold);
    let next: TokenSet;
    try {
      next = await calls.refresh(current as TokenSet & { refreshToken: string });
    } catch (error) {
      if (error instanceof NetworkError && error.timedOut) {
        // The request went out on a live connection and the service was slow: it most likely spent
        // the token, and presenting it again would be refused (or read as reuse). The next try
        // exchanges; under a lock the in-flight mark stays, so every other holder does the same.
        if (tokens === current) {
          tokens = withoutRefreshToken(current);
        }
        logger.warn?.(
          "The token refresh timed out: its refresh token may be spent and is not presented again; the next try exchanges",
        );
        throw error;
      }
      if (!(error instanceof RefreshRejectedError)) {
        await locking.putBack(current, hold, inTurn);
        throw error;
      }
      // Spent or unknown: it must never be sent again. One exchange decides.
      if (tokens === current) {
        tokens = withoutRefreshToken(current);
      }
      logger.warn?.(`${error.message}; exchanging the parent token again`);
      try {
        return await commit(gen, await exchange(hold, signal), "exchange");
      } catch (cause) {
        if (gen !== generation || cause instanceof LockLost || cause instanceof BudgetSpent) {
          throw cause;
        }
        throw new ReauthRequiredError(error, cause);
      }
    }
    return commit(gen, next, "refresh");
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

  async function renew(
    gen: number,
    need: Need,
    signal: AbortSignal,
    hold: LockHold | undefined,
  ): Promise<TokenSet> {
    let stored: TokenSet | undefined;
    let read = false;
    try {
      stored = fromStored(await store.get());
      read = true;
    } catch (error) {
      logger.error?.(`The token store could not be read: ${describe(error)}`);
    }
    ours(stored);
    if (gen !== generation) {
      throw loggedOut();
    }
    // Another manager on a shared store may have renewed already.
    tokens = locking.afterRead(tokens, stored, read);
    if (stored && tokens && stored.accessToken === tokens.accessToken) {
      locking.stored(tokens);
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
        return await obtain(gen, hold, signal);
      } catch (error) {
        // A spent shared budget is waited for outside the lock (see start), and is no failure yet.
        if (error instanceof BudgetSpent) {
          throw error;
        }
        emit({ type: "failed", code: String((error as { code?: unknown }).code) });
        if (gen !== generation || error instanceof LockLost || signal.aborted) {
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
    ours(stored);
    if (
      gen !== generation ||
      !stored ||
      stored.accessToken === tokens?.accessToken ||
      !locking.isNews(stored) ||
      !meets(stored, need, clock.now())
    ) {
      return undefined;
    }
    tokens = stored;
    locking.stored(stored);
    return stored;
  }

  /** The renewal under way, or a new one for `need`. */
  function start(need: Need): Running {
    if (phase !== "open") {
      throw closedError();
    }
    if (running) {
      return running;
    }
    const gen = generation;
    const controller = new AbortController();
    const run = (hold?: LockHold) => renew(gen, need, controller.signal, hold);
    const locked = async () => (await storedWithoutLock(gen, need)) ?? locking.underLock(run);
    const once = () =>
      locking.locks ? (locking.readsWithoutLock ? locked() : locking.underLock(run)) : run();
    // A spent shared budget: the lock is let go, the slot waited for here, and the store read again
    // (another process may have renewed meanwhile). A wait past the manager's deadline is the callers'
    // error at once, with the time of the next slot.
    const renewal = async (): Promise<TokenSet> => {
      for (;;) {
        try {
          return await once();
        } catch (error) {
          if (!(error instanceof BudgetSpent) || error.retryAfterMs > deps.maxBudgetWaitMs) {
            if (error instanceof BudgetSpent) {
              emit({ type: "failed", code: error.code });
            }
            throw error;
          }
          await deps.sleep(error.retryAfterMs, controller.signal);
        }
      }
    };
    const started: Running = {
      promise: (deps.slots ?? unbounded)(renewal, controller.signal).finally(() => {
        if (running === started) {
          running = undefined;
        }
      }),
      controller,
      waiters: 0,
      abandonable: false,
      late: false,
    };
    running = started;
    // The first reaction to its end, so that close() cannot resolve in between.
    const done = () => {
      started.late = phase === "closed";
      inFlight.delete(ended);
    };
    const ended: Promise<unknown> = started.promise.then(done, done);
    inFlight.add(ended);
    return started;
  }

  const acquire = (need: Need): Promise<TokenSet> => {
    try {
      return start(need).promise;
    } catch (error) {
      return Promise.reject(error);
    }
  };

  /**
   * The renewal for `need`, awaited until `signal` aborts. Once every caller that waited for a
   * renewal has given up, it is given up too: no further token call or wait of it holds the process
   * or spends the exchange's limit for nobody. A renewal a caller did not start (in the refresh
   * window, or `refresh()`) runs to its end.
   */
  async function waitFor(need: Need, signal: AbortSignal | null | undefined): Promise<TokenSet> {
    signal?.throwIfAborted();
    const started = running === undefined;
    const renewal = start(need);
    renewal.abandonable ||= started && signal !== undefined && signal !== null;
    const since = clock.now();
    renewal.waiters++;
    const settled = renewal.promise
      .finally(() => emit({ type: "waited", ms: clock.now() - since }))
      .then(
        (tokens) => {
          if (renewal.late) {
            throw closedError();
          }
          return tokens;
        },
        (error: unknown) => {
          throw renewal.late ? closedError() : error;
        },
      );
    if (!signal) {
      return settled;
    }
    return new Promise<TokenSet>((resolve, reject) => {
      const leave = () => {
        reject(signal.reason);
        if (--renewal.waiters === 0 && renewal.abandonable) {
          renewal.controller.abort(signal.reason);
        }
      };
      signal.addEventListener("abort", leave, { once: true });
      settled.then(resolve, reject).finally(() => signal.removeEventListener("abort", leave));
    });
  }

  /** The current token when it may still be sent (starting a renewal in its window), without waiting. */
  function servableToken(): string | undefined {
    // Every path that sends (client(), fetch, the middleware) asks here first: a closed session sends nothing.
    if (phase !== "open") {
      throw closedError();
    }
    const current = tokens;
    const now = clock.now();
    if (!current || !policy.isServable(current, now)) {
      return undefined;
    }
    if (!policy.isFresh(current, now) && !running && now >= nextAttemptAt) {
      // Failures are logged where they happen; callers keep the current token meanwhile.
      acquire({ kind: "fresh" }).catch(() => {});
    }
    return current.accessToken;
  }

  return {
    current: () => tokens,
    acquire,
    servableToken,
    /** Whether a renewal is under way. */
    renewing: () => running !== undefined,
    /** The signal of the renewal under way: its token calls end when it aborts. */
    renewalSignal: () => running?.controller.signal,
    /**
     * A valid access token, waiting for a renewal only when the current one may not be sent; the
     * wait ends when `signal` aborts.
     */
    async accessToken(signal?: AbortSignal | null): Promise<string> {
      return servableToken() ?? (await waitFor({ kind: "fresh" }, signal)).accessToken;
    },
    /** The token to send again after the server called `sent` expired: a newer one, shared. */
    async renewedAfter(sent: string, signal?: AbortSignal | null): Promise<string> {
      const current = tokens;
      if (current && meets(current, { kind: "newer", than: sent }, clock.now())) {
        return current.accessToken;
      }
      return (await waitFor({ kind: "newer", than: sent }, signal)).accessToken;
    },
    /**
     * Lets the renewal under way store its outcome (its lock is released when it ends), within
     * `timeoutMs`, then refuses new work. Resolves with whether nothing was left in flight.
     */
    async close(timeoutMs: number): Promise<boolean> {
      phase = "closing";
      const pending = inFlight.size > 0 ? Promise.all(inFlight).then(() => true) : undefined;
      if (!pending) {
        await writes;
        phase = "closed";
        return true;
      }
      // A wait the caller awaits: its timer holds the process, and goes once the renewal has ended.
      const timer = new AbortController();
      const late = deps.sleep(timeoutMs, timer.signal).then(
        () => false,
        () => false,
      );
      const drained = await Promise.race([pending, late]);
      timer.abort();
      // Past its time the renewal is given up: nothing more is sent once close() has resolved.
      running?.controller.abort(closedError());
      phase = "closed";
      await writes;
      return drained;
    },
    /** Forgets the tokens, in the store too; a renewal under way is discarded. */
    async logout(): Promise<void> {
      generation++;
      tokens = undefined;
      account = deps.mainAccountId;
      locking.forget();
      // Discarded: it sends nothing more, and close() still waits for it to let go of its lock.
      running?.controller.abort(loggedOut());
      running = undefined;
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
