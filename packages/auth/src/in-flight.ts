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
import { EngageVoiceAuthError, storeFailed, VERBOSE } from "./errors.js";
import type { LockHold } from "./store.js";
import { type TokenSet, withoutRefreshToken } from "./tokens.js";

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
