// What an observer of a token manager is told: the public hook that `@engage-voice/auth/opentelemetry`
// plugs into, and any tracer or meter of the user's own can. Each hook is optional, and none is ever
// given a token, a password, a body or a concrete path.
import type { CallObserver } from "@engage-voice/client";
import type { TokenEvent } from "./manager-config.js";

/** The token calls an observer sees: the two of the exchange flow, and the deprecated direct login. */
export type TokenOperation = "exchange" | "refresh" | "legacy_login";

/**
 * Watches a token manager (`createTokenManager({ observer })`, every tenant of
 * `createTenantPool({ manager: { observer } })`), `legacyLogin({ observer })` and
 * `apiTokens({ observer })`. The hooks that take `run` make the work by calling it (in a context of
 * their own, such as a span's, if they keep one) and return what it returns, or reject with its error.
 */
export interface TokenObserver {
  /** Every API call the manager makes or authorises, and the HTTP request of each token call. */
  call?: CallObserver["call"];
  /** A token call: an exchange, a refresh or a direct login, of `tenant` (none for a direct login). */
  tokenCall?<R>(
    call: { operation: TokenOperation; tenant: string | undefined },
    run: () => Promise<R>,
  ): Promise<R>;
  /** A caller waiting for a renewal, because the token it would be given may no longer be sent. */
  wait?<R>(wait: { tenant: string }, run: () => Promise<R>): Promise<R>;
  /** What each renewal did: the events `onEvent` hears. */
  event?(event: TokenEvent): void;
}

/**
 * The client's observer of `observer`'s API calls, if it watches them: the observer itself, whose
 * `call` the client calls as its method (it may be an instance of a class of the user's).
 */
export const callObserverOf = (observer: TokenObserver | undefined): CallObserver | undefined =>
  observer?.call ? (observer as CallObserver) : undefined;

/** Runs a token call under `observer`'s `tokenCall`, or alone. */
export function observedTokenCall<R>(
  observer: TokenObserver | undefined,
  call: { operation: TokenOperation; tenant: string | undefined },
  run: () => Promise<R>,
): Promise<R> {
  return observer?.tokenCall ? observer.tokenCall(call, run) : run();
}
