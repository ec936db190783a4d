import {
  type CallObserver,
  type CallOptions,
  type CallPolicy,
  callDefaults,
  defaultLogger,
  type Logger,
  type Sleep,
  sleep,
} from "./call-policy.js";
import { editDistance } from "./edit-distance.js";
import { checkOrigin } from "./origin.js";

/**
 * Raised for options that cannot work, before any request is made. `code` is `invalid_options`, as
 * `@engage-voice/auth`'s option errors: one check covers both packages. The message names the option
 * and what it accepts, and never quotes a credential.
 */
export class ClientOptionsError extends TypeError {
  override readonly name = "ClientOptionsError";
  readonly code = "invalid_options";
}

/** Edits between two option names, whatever their case (`baseURL` meant `baseUrl`). */
const distance = (a: string, b: string) => editDistance(a.toLowerCase(), b.toLowerCase());

/**
 * The first name of `given` that `known` does not hold, as a message that names the nearest known
 * one: a misspelt option (`baseURL`) would otherwise be ignored in silence, and the call would go to
 * the default host. Only names are quoted, never values.
 */
export function unknownOption(given: object, known: readonly string[], call: string): string | undefined {
  for (const name of Object.keys(given)) {
    if (known.includes(name)) {
      continue;
    }
    const nearest = known.reduce((best, candidate) =>
      distance(name, candidate) < distance(name, best) ? candidate : best,
    );
    const hint =
      distance(name, nearest) <= Math.max(2, nearest.length / 3) ? `: did you mean ${nearest}?` : "";
    return `${call} has no option ${JSON.stringify(name.slice(0, 40))}${hint} (it takes ${known.join(", ")})`;
  }
  return undefined;
}

/** A whole number within [least, most], or `fallback` when absent. */
function wholeNumber(name: string, value: unknown, fallback: number, least: number, most: number): number {
  if (value === undefined) {
    return fallback;
  }
  if (
    typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined" &&
    (!Number.isInteger(value) || (value as number) < least || (value as number) > most)
  ) {
    throw new ClientOptionsError(`${name} must be a whole number from ${least} to ${most}`);
  }
  return value as number;
}

/** The longest deadline and the most retries a client or a call may ask for. */
export const callLimits = { timeoutMs: 3_600_000, maxRetries: 10 } as const;

/** What a client's own options may set beside openapi-fetch's: the call policy and its test hooks. */
export interface PolicyOptions extends CallOptions {
  /** Gets retries (`warn`) and, with `ENGAGE_VOICE_LOG=debug`, a line per try (`debug`). Default: console. */
  logger?: Logger;
  /** Defaults to `Date`: read for `Retry-After` dates and the deadline's accounting. */
  clock?: { now(): number };
  /** The wait between tries; defaults to a timer that ends early on abort. */
  sleep?: Sleep;
  /** A number in [0, 1) for the backoff's jitter; defaults to `Math.random`. */
  random?: () => number;
  /** Told of every call, its retries and its end, for traces and metrics (`@engage-voice/auth/opentelemetry`). */
  observer?: CallObserver | undefined;
}

/** A call's own `timeoutMs` and `maxRetries` over its client's. */
export function callPolicyOf(given: PolicyOptions, base?: CallPolicy): CallPolicy {
  // The common call sets neither: its client's policy as it is, nothing copied.
  if (base && given.timeoutMs === undefined && given.maxRetries === undefined) {
    return base;
  }
  const fallback = base ?? callDefaults;
  const policy = {
    timeoutMs: wholeNumber("timeoutMs", given.timeoutMs, fallback.timeoutMs, 1, callLimits.timeoutMs),
    maxRetries: wholeNumber("maxRetries", given.maxRetries, fallback.maxRetries, 0, callLimits.maxRetries),
    maxRetryWaitMs: callDefaults.maxRetryWaitMs,
  };
  if (base) {
    return { ...base, ...policy };
  }
  const clock = given.clock ?? Date;
  if (typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined") {
    for (const name of ["sleep", "random"] as const) {
      if (given[name] !== undefined && typeof given[name] !== "function") {
        throw new ClientOptionsError(`${name} must be a function`);
      }
    }
    if (typeof clock?.now !== "function") {
      throw new ClientOptionsError("clock must be an object with now() (Date fits)");
    }
    if (given.observer !== undefined && typeof given.observer?.call !== "function") {
      throw new ClientOptionsError(
        "observer must be an object with call(call, run), such as openTelemetry() of @engage-voice/auth/opentelemetry",
      );
    }
  }
  return {
    ...policy,
    logger: given.logger ?? defaultLogger(),
    now: () => clock.now(),
    sleep: given.sleep ?? sleep,
    random: given.random ?? Math.random,
    observer: given.observer,
  };
}

/** `baseUrl`, or `fallback` when absent, as an origin under {@link checkOrigin}'s rule. */
export function resolveBaseUrl(baseUrl: unknown, fallback: string): string {
  if (baseUrl !== undefined && typeof baseUrl !== "string") {
    throw new ClientOptionsError("baseUrl must be a string such as https://engage.ringcentral.com");
  }
  const checked = checkOrigin(baseUrl ?? fallback);
  if ("problem" in checked) {
    throw new ClientOptionsError(`baseUrl ${checked.problem}`);
  }
  return checked.origin;
}
