// What a session asks of its store's rules, and the rules of a store without a lock. The rules of a
// store with a lock (locking-store.ts) come with the store, through its `lockingRules`: an app whose
// stores never lock (the default memory store) does not carry them.
import { EngageVoiceAuthError, VERBOSE } from "./errors.js";
import type { LockHold, TokenStore } from "./store.js";
import type { TokenSet } from "./tokens.js";
import type { Logger } from "./types.js";

/** Writes a set as the store's, in turn with the session's other writes. */
export type WriteInTurn = (tokens: TokenSet) => Promise<void>;

/**
 * The rules of a session's store: what it must write before and after a refresh, what a read of the
 * store means for the set it holds, and how a renewal runs under the lock. The session calls them
 * the same way for every store.
 */
export interface StoreRules {
  /** Whether renewals run under the store's lock. */
  readonly locks: boolean;
  /** Whether a fresh set may be read without the lock first (a store that offers `peek`). */
  readonly readsWithoutLock: boolean;
  /** `tokens` was just written to the store, or read from it. */
  stored(tokens: TokenSet): void;
  /** The session holds `tokens` now: a later read of them is not news. */
  saw(tokens: TokenSet): void;
  /** Whether `stored` is a set this session never held nor read: another process's, and newer. */
  isNews(stored: TokenSet): boolean;
  /** After logout(): nothing the session saw before says anything about the store any more. */
  forget(): void;
  /** What the session should hold after reading the store (`read`: whether the read succeeded). */
  afterRead(held: TokenSet | undefined, stored: TokenSet | undefined, read: boolean): TokenSet | undefined;
  /** Before a refresh presents `current`'s token. */
  beforeRefresh(current: TokenSet, write: WriteInTurn): Promise<void>;
  /** After a refresh that failed without a refusal. */
  putBack(current: TokenSet, hold: LockHold | undefined, write: WriteInTurn): Promise<void>;
  /** Runs a renewal under the store's lock. */
  underLock(run: (hold?: LockHold) => Promise<TokenSet>): Promise<TokenSet>;
  /** Resolves while `hold` is still held; throws, having sent nothing, when the lock is lost. */
  stillHeld(hold: LockHold | undefined): Promise<void>;
  /** Whether `error` says the lock was lost before a token call (nothing was sent). */
  lostLock(error: unknown): boolean;
}

/**
 * The rules a store with a lock carries as its `lockingRules`: `lockingRules` of
 * `@engage-voice/auth/store-kit`.
 */
export type LockingRules = (store: TokenStore, logger: Logger) => StoreRules;

const none = () => {};
const nothing = async () => {};

/**
 * A store without a lock is one process's: which set is newer is decided by `sequence`, not by
 * expiry times (on each process's own clock, which may be off); nothing is marked or put back.
 */
const withoutLock: StoreRules = {
  locks: false,
  readsWithoutLock: false,
  stored: none,
  saw: none,
  isNews: () => true,
  forget: none,
  afterRead: (held, stored) =>
    stored && stored.accessToken !== held?.accessToken && stored.sequence >= (held?.sequence ?? 0)
      ? stored
      : held,
  beforeRefresh: nothing,
  putBack: nothing,
  underLock: (run) => run(),
  stillHeld: nothing,
  lostLock: () => false,
};

/**
 * The rules of `store`: its own when it locks. A store with a lock and without its rules is refused
 * in every build (when the manager is made): under a lock, a refresh token must never be presented
 * twice, and those rules are what keeps it so.
 */
export function rulesOf(store: TokenStore, logger: Logger): StoreRules {
  if (store.lock === undefined) {
    return withoutLock;
  }
  if (typeof store.lockingRules !== "function") {
    throw new EngageVoiceAuthError(
      "invalid_options",
      VERBOSE
        ? "store has a lock but no lockingRules: give it the rules of a store with a lock, { ...store, lockingRules } with lockingRules from @engage-voice/auth/store-kit"
        : "store.lockingRules",
    );
  }
  return store.lockingRules(store, logger);
}
