import type { Sleep } from "@engage-voice/client";
import { checkOrigin, sleep, unknownOption } from "@engage-voice/client/internal";
import { EngageVoiceAuthError, VERBOSE } from "./errors.js";
import type { TokenObserver } from "./observer.js";
import type { TokenStore } from "./store.js";
import { isHeaderSafe } from "./tokens.js";
import { checkTransport } from "./transport-policy.js";
import type { Clock } from "./types.js";

/**
 * Checks that only help a developer (types, ranges, names) run wherever
 * `__ENGAGE_VOICE_PRODUCTION__` is undeclared, which is everywhere but the `production` export
 * condition's build (src/production.d.ts); checks that keep a credential safe (the base URL, the
 * transport, header-safe tokens) run everywhere.
 *
 * One validator for the options of every public function: each check names the option and what it
 * accepts, and never quotes the value (it may be a token or a password).
 */
export function invalid(message: string): EngageVoiceAuthError {
  return new EngageVoiceAuthError("invalid_options", message);
}

/** The options object itself: `undefined` counts as empty where every option is optional. */
export function optionsOf<T extends object>(value: T | undefined | null, call: string, required = false): T {
  if (value === undefined && !required) {
    return {} as T;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid(`${call} needs an options object`);
  }
  return value;
}

/**
 * Refuses a name `known` does not hold, naming the nearest known one: a misspelt option (`baseURL`)
 * would otherwise be ignored in silence. Called under the development guard where it ships to
 * browsers, so the production build drops it with its list.
 */
export function refuseUnknown(given: object, known: readonly string[], call: string): void {
  const unknown = unknownOption(given, known, call);
  if (unknown) {
    throw invalid(unknown);
  }
}

/** An integer within [least, most], or `fallback` when absent. */
export function integer(name: string, value: unknown, fallback: number, least: number, most: number): number {
  if (value === undefined) {
    return fallback;
  }
  if (
    typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined" &&
    (!Number.isInteger(value) || (value as number) < least || (value as number) > most)
  ) {
    throw invalid(`${name} must be an integer from ${least} to ${most}`);
  }
  return value as number;
}

/**
 * A flag. Checked in every build: `allowInsecureHttp: "false"` must never read as true where it lets a
 * credential travel in cleartext.
 */
export function boolean(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) {
    return fallback;
  }
  if (typeof value !== "boolean") {
    throw invalid(`${name} must be true or false`);
  }
  return value as boolean;
}

/** A function, or `undefined` when absent. */
export function optionalFunction<F>(name: string, value: F | undefined): F | undefined {
  if (
    typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined" &&
    value !== undefined &&
    typeof value !== "function"
  ) {
    throw invalid(`${name} must be a function`);
  }
  return value;
}

/** Throws unless `value` is a non-empty string; names the option, never its value. */
export function requireText(value: unknown, name: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw invalid(VERBOSE ? `${name} must be a non-empty string` : name);
  }
  return value;
}

/** A token that goes into a header: visible ASCII without spaces or line breaks. */
export function requireToken(value: unknown, name: string): string {
  requireText(value, name);
  if (!isHeaderSafe(value)) {
    throw invalid(
      VERBOSE ? `${name} must be a token of visible ASCII characters, without spaces or line breaks` : name,
    );
  }
  return value as string;
}

/** The parent-platform token as given, or as its function returned it. */
function requireParentToken(value: unknown): string {
  if (typeof value !== "string" && typeof value !== "function") {
    throw invalid(
      VERBOSE ? "rcAccessToken must be a non-empty string or a function that returns one" : "rcAccessToken",
    );
  }
  return requireToken(value, "rcAccessToken");
}

/**
 * `rcAccessToken` as the function a new exchange calls: a string is checked now, what a function
 * returns is checked on each call, and a throw of it becomes `parent_token_failed`.
 */
export function parentTokenOf(value: unknown): () => Promise<string> {
  if (typeof value !== "function") {
    const token = requireParentToken(value);
    return async () => token;
  }
  return async () => {
    let token: unknown;
    try {
      token = await value();
    } catch (cause) {
      throw new EngageVoiceAuthError("parent_token_failed", "rcAccessToken() failed", { cause });
    }
    return requireParentToken(token);
  };
}

/** `clock`, or `Date` when absent. */
export function requireClock(value: unknown): Clock {
  const clock = (value ?? Date) as Partial<Clock>;
  if (typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined" && typeof clock.now !== "function") {
    throw invalid("clock must be an object with now() (Date fits)");
  }
  return clock as Clock;
}

/**
 * `sleep`, or by default the client's: a timer that keeps the process alive, since every wait of
 * this package is awaited by a caller (a retry, a shared renewal), and that ends early on abort.
 */
export function requireSleep(value: Sleep | undefined): Sleep {
  return optionalFunction("sleep", value) ?? sleep;
}

/**
 * `refreshWindow`, tried on a short and a long lifetime: a function that returns no usable number
 * fails now rather than at the first renewal.
 */
export function requireRefreshWindow(value: unknown): ((lifetimeMs: number) => number) | undefined {
  const refreshWindow = optionalFunction("refreshWindow", value as (lifetimeMs: number) => unknown);
  if (typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined") {
    for (const lifetime of [2_000, 300_000]) {
      const window = refreshWindow?.(lifetime) ?? 0;
      if (typeof window !== "number" || !Number.isFinite(window) || window < 0) {
        throw invalid("refreshWindow must return a finite number of ms of at least 0 for every lifetime");
      }
    }
  }
  return refreshWindow as ((lifetimeMs: number) => number) | undefined;
}

export function requireStore(value: unknown): TokenStore | undefined {
  if (value === undefined) {
    return undefined;
  }
  const store = value as Partial<TokenStore> | null;
  if (
    typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined" &&
    (typeof store !== "object" ||
      store === null ||
      typeof store.get !== "function" ||
      typeof store.set !== "function" ||
      typeof store.clear !== "function" ||
      (store.lock !== undefined && typeof store.lock !== "function"))
  ) {
    throw invalid("store must be a TokenStore: an object with get, set and clear (and optionally lock)");
  }
  return store as TokenStore;
}

/** An observer: an object whose hooks, those it has, are functions (development builds check it). */
export function optionalObserver(value: unknown): TokenObserver | undefined {
  if (value === undefined || typeof __ENGAGE_VOICE_PRODUCTION__ !== "undefined") {
    return value as TokenObserver | undefined;
  }
  const hooks = ["call", "tokenCall", "wait", "event"] as const;
  if (
    typeof value !== "object" ||
    value === null ||
    hooks.some((hook) => !["undefined", "function"].includes(typeof (value as Record<string, unknown>)[hook]))
  ) {
    throw invalid(
      "observer must be an object with optional call, tokenCall, wait and event methods, such as openTelemetry() of @engage-voice/auth/opentelemetry",
    );
  }
  return value as TokenObserver;
}

export function requireLogger<L extends object>(value: L | undefined, fallback: L): L {
  if (value === undefined) {
    return fallback;
  }
  if (typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined") {
    if (typeof value !== "object" || value === null) {
      throw invalid("logger must be an object with optional warn and error methods (console fits)");
    }
    for (const level of ["debug", "info", "warn", "error"] as const) {
      const method = (value as Record<string, unknown>)[level];
      if (method !== undefined && typeof method !== "function") {
        throw invalid(`logger.${level} must be a function`);
      }
    }
  }
  return value;
}

/**
 * The origin of a base URL, checked before any credential is near it: the client's rule
 * (`checkOrigin`), then the transport's.
 */
export function requireBase(baseUrl: unknown, fallback: string, allowInsecureHttp: unknown): URL {
  const insecure = boolean("allowInsecureHttp", allowInsecureHttp, false);
  if (baseUrl !== undefined && typeof baseUrl !== "string") {
    throw invalid("baseUrl must be a string such as https://engage.ringcentral.com");
  }
  const checked = checkOrigin(baseUrl ?? fallback);
  if ("problem" in checked) {
    throw invalid(`baseUrl ${checked.problem}`);
  }
  const url = new URL(checked.origin);
  checkTransport(url, insecure);
  return url;
}
