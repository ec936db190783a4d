import type { TokenSet } from "./tokens.js";

/**
 * The numbers of the renewal policy, in one place (Azure's token cycler keeps its windows the same
 * way): how early a token is renewed, and when it is no longer handed out.
 */
export const renewalDefaults = {
  /** The refresh window is this share of the token's lifetime... */
  windowShare: 0.2,
  /** ...at most this long. */
  maxWindowMs: 60_000,
  /** A window never takes more than this share of the lifetime, so every token is used for a while. */
  maxWindowShare: 0.5,
  /** In this last share of the window the token is no longer sent: callers wait for the renewal. */
  unservableShare: 0.25,
} as const;

/** The default refresh window: `windowShare` of the lifetime, at most `maxWindowMs`. */
export const defaultRefreshWindow = (lifetimeMs: number) =>
  Math.min(lifetimeMs * renewalDefaults.windowShare, renewalDefaults.maxWindowMs);

export interface RenewalPolicy {
  /** Not yet in the refresh window: nothing to renew. */
  isFresh(tokens: TokenSet, now: number): boolean;
  /** Still far enough from expiry to be sent; in the window, a renewal runs meanwhile. */
  isServable(tokens: TokenSet, now: number): boolean;
}

/** The policy for a refresh window (`refreshWindow` of the manager's options, or the default). */
export function renewalPolicy(
  refreshWindow: (lifetimeMs: number) => number = defaultRefreshWindow,
): RenewalPolicy {
  const window = (tokens: TokenSet) => {
    const lifetime = Math.max(0, tokens.expiresAt - tokens.obtainedAt);
    const wanted = refreshWindow(lifetime);
    // A window that is not a number would renew on every call: the default stands in for it.
    const safe = Number.isFinite(wanted) && wanted >= 0 ? wanted : defaultRefreshWindow(lifetime);
    return Math.min(safe, lifetime * renewalDefaults.maxWindowShare);
  };
  return {
    isFresh: (tokens, now) => now < tokens.expiresAt - window(tokens),
    isServable: (tokens, now) => now < tokens.expiresAt - window(tokens) * renewalDefaults.unservableShare,
  };
}

/** What the caller of a renewal needs from it. */
export type Need =
  /** Any token outside its refresh window (a first call, or a renewal in the window). */
  | { kind: "fresh" }
  /** A servable token other than `than`, which the server called expired. */
  | { kind: "newer"; than: string }
  /** A token call, whatever is held (`refresh()`). */
  | { kind: "new" };

/** Whether `held` already meets `need`, so that no token call is needed. */
export function meets(policy: RenewalPolicy, held: TokenSet | undefined, need: Need, now: number): boolean {
  if (!held || need.kind === "new") {
    return false;
  }
  return need.kind === "fresh"
    ? policy.isFresh(held, now)
    : held.accessToken !== need.than && policy.isServable(held, now);
}
