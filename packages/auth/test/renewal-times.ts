// Where a token stands in its refresh window, computed from `renewalDefaults`: the manager tests move
// their clocks by these, so changing the window is an edit of src/renewal-policy.ts alone.
import { defaultRefreshWindow, renewalDefaults } from "../src/renewal-policy.js";

/** The default window of a token that lives `lifetimeMs` (local clock), with the policy's cap. */
export const windowOf = (lifetimeMs: number) =>
  Math.min(defaultRefreshWindow(lifetimeMs), lifetimeMs * renewalDefaults.maxWindowShare);

/**
 * The moments of a token obtained at `obtainedAt` that expires at `expiresAt` (local clock): the
 * last fresh one, one inside the window where it is still handed out, one where callers wait.
 */
export function renewalMoments(obtainedAt: number, expiresAt: number) {
  const window = windowOf(expiresAt - obtainedAt);
  const renewsAt = expiresAt - window;
  const unservableAt = expiresAt - window * renewalDefaults.unservableShare;
  return {
    window,
    /** The window opens here: the last fresh moment is one before. */
    renewsAt,
    /** From here on the token is no longer handed out. */
    unservableAt,
    lastFresh: renewsAt - 1,
    /** Halfway through the part of the window where the token is still sent. */
    inWindow: Math.floor((renewsAt + unservableAt) / 2),
    /** Halfway through the last part, where callers wait for the renewal. */
    unservable: Math.floor((unservableAt + expiresAt) / 2),
    expiresAt,
  };
}

/** The moments of the token a manager holds now, obtained at `clock.now()` (no token-call latency). */
export function momentsNow(clock: { now(): number }, auth: { session(): { expiresAt: number } | undefined }) {
  const session = auth.session();
  if (!session) {
    throw new Error("momentsNow: the manager holds no token yet; call getAccessToken() first");
  }
  return renewalMoments(clock.now(), session.expiresAt);
}

/** Moves `clock` to the absolute moment `at`. */
export const moveTo = (clock: { now(): number; advance(ms: number): void }, at: number) =>
  clock.advance(at - clock.now());
