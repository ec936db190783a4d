// The rules only a store with a lock needs, apart from the session they protect (token-cycler.ts).
//
// A refresh token is spent by the first call that presents it, and managers sharing a store take
// turns under its lock. Two things can still hand a spent one to the next turn, and these rules, used
// by the token cycler for every store with a lock, keep it from being presented:
//
// - A holder that stalled (SIGSTOP, a frozen VM) until its lock was taken over, then woke up. Right
//   before each token call the holder asks its lock whether it still holds it; if not, it sends
//   nothing, takes the lock again and reads the store again.
// - A holder whose outcome never reached the store: its process died mid-call, or the store died
//   (a Redis restarted from its last write, or with nothing). Before a refresh, the holder stores its
//   set without the refresh token: the mark. A successor that finds the mark and no newer set cannot
//   know whether the token was spent, so it exchanges. A holder that lives to see its call fail puts
//   the token back while it still holds the lock, so an ordinary failure costs no exchange. A set gone
//   from the store altogether is treated the same way: its refresh token is not presented again.
//
// A store with a lock carries these rules as its `lockingRules` (the store kit exports them): an app
// whose stores never lock does not ship them, and a store with a lock but without them is refused
// (store-rules.ts).
import { describe, EngageVoiceAuthError, storeFailed, VERBOSE } from "./errors.js";
import type { LockHold, TokenStore } from "./store.js";
import type { LockingRules, StoreRules, WriteInTurn } from "./store-rules.js";
import { type TokenSet, withoutRefreshToken } from "./tokens.js";
import type { Logger } from "./types.js";

/** The lock was lost before a token call: nothing was sent. */
export class LockLost extends EngageVoiceAuthError {
  constructor() {
    super(
      "store_failed",
      VERBOSE
        ? "The token store's lock was lost (this process stalled past its life): no token call made"
        : "lock lost",
    );
  }
}

/**
 * Resolves while `hold` is still held, asking the lock itself when it can; throws `LockLost` when it
 * is not. A lock that passes no hold (or something else, such as a promise chain's value) is trusted.
 */
export async function stillHeld(hold: LockHold | undefined): Promise<void> {
  const given = typeof hold === "object" && hold !== null ? hold : undefined;
  let ours: boolean;
  try {
    ours = given?.aborted !== true && (typeof given?.held === "function" ? await given.held() : true);
  } catch (error) {
    throw storeFailed("The token store's lock could not be checked before the token call", error);
  }
  if (!ours) {
    throw new LockLost();
  }
}

/** The set as stored while a refresh with its token is under way. */
export const markInFlight = (tokens: TokenSet): TokenSet => withoutRefreshToken(tokens);

/** Whether `stored` is `held` marked in flight by a turn whose outcome never reached the store. */
export const isMarkOf = (stored: TokenSet, held: TokenSet | undefined): boolean =>
  stored.accessToken === held?.accessToken &&
  stored.sequence === held.sequence &&
  held.refreshToken !== undefined &&
  stored.refreshToken === undefined;

/** How many of the latest sets a session remembers having seen (a failover loses a few writes). */
const SEEN_SETS = 8;

/** FNV-1a of a token: remembered sets cost a number each, not a copy of a kilobyte-long JWT. */
function fingerprint(token: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) {
    hash = Math.imul(hash ^ token.charCodeAt(i), 0x01000193);
  }
  return (hash >>> 0) * 0x10000 + token.length;
}

/**
 * The sets a session held or read lately, by a hash of their access token: a stored set it never saw
 * is another process's, newer than anything it holds, whatever its sequence (a store restarted empty
 * numbers from 1 again); one it saw is older (a failover lost its latest write).
 */
function seenSets() {
  const seen: number[] = [];
  return {
    /** The session holds `tokens` now, or read them: a later read of them is not news. */
    saw(tokens: TokenSet): void {
      const hash = fingerprint(tokens.accessToken);
      if (!seen.includes(hash)) {
        seen.unshift(hash);
        seen.length = Math.min(seen.length, SEEN_SETS);
      }
    },
    /** Whether `stored` is a set this session never held nor read: another process's, and newer. */
    isNews: (stored: TokenSet): boolean => !seen.includes(fingerprint(stored.accessToken)),
    forgetSeen(): void {
      seen.length = 0;
    },
  };
}

/**
 * Runs a renewal under the store's lock. A lock lost before a token call (nothing was sent) is taken
 * again once, and the store read again: the successor's set is most likely there by then.
 */
async function underLock(
  store: TokenStore,
  logger: Logger,
  run: (hold?: LockHold) => Promise<TokenSet>,
): Promise<TokenSet> {
  // What the task threw is the renewal's own outcome; anything else the lock threw is the store's.
  let fromTask = false;
  const task = (hold?: LockHold) =>
    run(hold).catch((error: unknown) => {
      fromTask = true;
      throw error;
    });
  const lock = (task: typeof run) => (store as Required<Pick<TokenStore, "lock">>).lock<TokenSet>(task);
  try {
    return await lock(task);
  } catch (error) {
    if (!fromTask && !(error instanceof EngageVoiceAuthError)) {
      throw storeFailed("The token store's lock could not be taken", error);
    }
    if (!(error instanceof LockLost)) {
      throw error;
    }
    logger.warn?.(`${error.message}; reading the store again under the lock`);
    fromTask = false;
    return lock(task).catch((again: unknown) => {
      throw fromTask || again instanceof EngageVoiceAuthError
        ? again
        : storeFailed("The token store's lock could not be taken", again);
    });
  }
}

/**
 * The rules of a store with a lock, for one session: what it must write before and after a refresh,
 * what a read of the store means for the set it holds, and how a renewal runs under the lock.
 */
export const lockingRules: LockingRules = (store: TokenStore, logger: Logger): StoreRules => {
  // The set this session knows its store holds (read there or written there): once it is gone from a
  // store with a lock, another process may have spent its refresh token meanwhile.
  let inStore: TokenSet | undefined;
  const { saw, isNews, forgetSeen } = seenSets();
  return {
    locks: true,
    readsWithoutLock: typeof store.peek === "function",
    /** `tokens` was just written to the store, or read from it. */
    stored(tokens: TokenSet): void {
      inStore = tokens;
      saw(tokens);
    },
    saw,
    isNews,
    /** After logout(): nothing the session saw before says anything about the store any more. */
    forget(): void {
      inStore = undefined;
      forgetSeen();
    },
    /**
     * What the session should hold after reading the store under its lock. A set it never saw is the
     * newest. A failed read, a set gone, or the mark of a refresh that never came back means an
     * exchange: another process may have spent the held refresh token.
     */
    afterRead(held: TokenSet | undefined, stored: TokenSet | undefined, read: boolean): TokenSet | undefined {
      if (!read) {
        if (!held?.refreshToken) {
          return held;
        }
        logger.warn?.(
          "The token store could not be read under its lock, so another process may have spent the refresh token: exchanging again",
        );
        return withoutRefreshToken(held);
      }
      if (stored && stored.accessToken !== held?.accessToken && isNews(stored)) {
        return stored;
      }
      if (stored && isMarkOf(stored, held)) {
        logger.warn?.(
          "A renewal that never came back left the refresh token marked in flight: exchanging again",
        );
        return stored;
      }
      if (!stored && held?.refreshToken && held === inStore) {
        logger.warn?.(
          "The token set is gone from the store, its refresh token maybe spent: exchanging again",
        );
        return withoutRefreshToken(held);
      }
      return held;
    },
    /** Before a refresh presents `current`'s token: the mark, or no token call at all. */
    async beforeRefresh(current: TokenSet, write: WriteInTurn): Promise<void> {
      await write(markInFlight(current)).catch((error: unknown) => {
        if (error instanceof EngageVoiceAuthError) {
          throw error;
        }
        throw storeFailed(
          "The token store could not mark the refresh in flight: no token call was made",
          error,
        );
      });
    },
    /**
     * After a refresh that failed without a refusal, stores the set with its refresh token again, so
     * the next renewal here or elsewhere follows the usual rules rather than the mark's exchange. Only
     * while the lock is ours: a successor may have found the mark and acted on it.
     */
    async putBack(current: TokenSet, hold: LockHold | undefined, write: WriteInTurn): Promise<void> {
      const ours = await stillHeld(hold).then(
        () => true,
        () => false,
      );
      if (!ours) {
        return;
      }
      await write(current).catch((error: unknown) => {
        logger.error?.(
          `The token store could not take back the in-flight mark (${describe(error)}): the next renewal exchanges`,
        );
      });
    },
    /** Runs a renewal under the store's lock (`underLock`, above). */
    underLock: (run: (hold?: LockHold) => Promise<TokenSet>) => underLock(store, logger, run),
    stillHeld,
    lostLock: (error) => error instanceof LockLost,
  };
};
