// A refresh token is spent by the first call that presents it, and managers sharing a store take
// turns under its lock. Things can still hand a spent one to the next turn, and these rules, used by
// the token cycler for every store with a lock, keep it from being presented:
//
// - A holder that stalled (SIGSTOP, a frozen VM) until its lock was taken over, then woke up. Right
//   before each token call the holder asks its lock whether it still holds it; if not, it sends
//   nothing, takes the lock again and reads the store again.
import { EngageVoiceAuthError, storeFailed } from "./errors.js";
import type { LockHold } from "./store.js";

/** The lock was lost before a token call: nothing was sent. */
export class LockLost extends EngageVoiceAuthError {
  constructor() {
    super(
      "store_failed",
      "The token store's lock was lost before the token call (this process stalled longer than the lock lives): no token call was made",
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
