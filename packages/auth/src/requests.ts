import { isApiError, ResponseParseError, type TokenResponse } from "@engage-voice/client";
import {
  type AuthErrorCode,
  type EngageVoiceAuthError,
  NetworkError,
  RateLimitedError,
  UnexpectedResponseError,
} from "./errors.js";
import { ResponseTooLargeError } from "./limited-fetch.js";
import { isHeaderSafe, type TokenSet, toTokenSet } from "./tokens.js";
import type { Clock, FetchLike, Logger } from "./types.js";

type Result = { data?: unknown; error?: unknown; response: Response };
type Rejected = new (
  code: AuthErrorCode,
  message: string,
  options: { status: number },
) => EngageVoiceAuthError;

/** Looked up on each call, so a fetch installed later (a test, a polyfill) is used; never called as a method. */
export const globalFetch: FetchLike = (request) => fetch(request);

/** The default logger; library code logs through a `Logger` only, so this is the one place with console. */
export const consoleLogger: Logger = {
  // biome-ignore lint/suspicious/noConsole: the documented default logger of the package
  warn: (message) => console.warn(message),
  // biome-ignore lint/suspicious/noConsole: the documented default logger of the package
  error: (message) => console.error(message),
};

/**
 * Options that every credentialed request of this package takes: a redirect is not followed, so it
 * cannot carry a credential elsewhere. The deadline is kept by {@link limitedFetch}.
 */
export const requestInit = { redirect: "manual" } as const;

const MAX_WAIT_MS = 3_600_000;
const FALLBACK_WAIT_MS = 60_000;
const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
// RFC 9110's HTTP-date: IMF-fixdate, and the obsolete RFC 850 and asctime forms it still accepts.
const HTTP_DATE = new RegExp(
  `^(?:${DAY}, \\d{2} ${MONTH} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT|[A-Z][a-z]+day, \\d{2}-${MONTH}-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT|${DAY} ${MONTH} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4})$`,
);

/**
 * `Retry-After` in ms: delay-seconds or an HTTP date (read against the response's own `Date`). Any
 * other value (`-5`, `1.5`, `7, 8`), or none, means 60 s: what the server meant cannot be known.
 */
export function retryAfterMs(response: Response, now: number): number {
  const value = response.headers.get("Retry-After")?.trim() ?? "";
  let wait = FALLBACK_WAIT_MS;
  if (/^\d{1,10}$/.test(value)) {
    wait = Number(value) * 1000;
  } else if (HTTP_DATE.test(value)) {
    const date = response.headers.get("Date") ?? "";
    wait = Date.parse(value) - (HTTP_DATE.test(date) ? Date.parse(date) : now);
  }
  return Math.min(Math.max(wait, 0), MAX_WAIT_MS);
}

/** The platform's error codes are dotted lower-case words (`access.denied.exception`). */
const PLATFORM_CODE = /^[a-z][a-z0-9]{0,30}(?:[._][a-z0-9]{1,30}){1,6}$/;

/**
 * The `errorCode` of an answer when it is safe to quote: shaped like the platform's codes, and not
 * holding any credential the call carried (a server may echo what it was sent).
 */
function quotableCode(error: unknown, secrets: readonly string[]): string | undefined {
  if (!isApiError(error) || error.errorCode.length > 80 || !PLATFORM_CODE.test(error.errorCode)) {
    return undefined;
  }
  const code = error.errorCode;
  return secrets.some((secret) => secret.length >= 4 && (code.includes(secret) || secret.includes(code)))
    ? undefined
    : code;
}

/**
 * The error for a failed answer. Only the platform's dotted `errorCode` is quoted: its other
 * fields may echo a token (a delete's `requestUri` holds the API token it deletes).
 */
export function failure(
  what: string,
  result: Result,
  now: number,
  rejected?: { type: Rejected; code: AuthErrorCode; statuses?: readonly number[]; hint?: string },
  secrets: readonly string[] = [],
): EngageVoiceAuthError {
  const { status } = result.response;
  const code = quotableCode(result.error, secrets);
  const detail = code ? ` (${code})` : "";
  if (rejected && (rejected.statuses ?? [400, 401]).includes(status)) {
    const hint = rejected.hint ? `: ${rejected.hint}` : "";
    return new rejected.type(rejected.code, `${what} was refused with ${status}${detail}${hint}`, { status });
  }
  if (status === 429) {
    return new RateLimitedError(retryAfterMs(result.response, now), `${what} was rate limited${detail}`, {
      status,
    });
  }
  const empty = result.response.ok ? " without the expected content" : "";
  return new UnexpectedResponseError("unexpected_response", `${what} answered ${status}${empty}${detail}`, {
    status,
  });
}

/** Makes one request through a generated client, turning a thrown failure into a typed error. */
export async function send(what: string, call: () => Promise<Result>): Promise<Result> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ResponseTooLargeError) {
      throw new ResponseTooLargeError(what, error.maxBytes, error.status);
    }
    if (error instanceof ResponseParseError) {
      throw new UnexpectedResponseError("unexpected_response", `${what} answered a body that is not JSON`, {
        status: error.status,
      });
    }
    throw new NetworkError(what, error);
  }
}

/** What the manager reads of a token answer is what it must be; anything else is not a token answer. */
function malformed(data: TokenResponse): string | undefined {
  if (!isHeaderSafe(data.accessToken)) {
    return "accessToken is not a token";
  }
  if (
    data.refreshToken !== undefined &&
    (typeof data.refreshToken !== "string" || data.refreshToken === "")
  ) {
    return "refreshToken is not a string";
  }
  return undefined;
}

/** A token call (exchange, refresh, direct login): a token set, or the typed error. */
export async function tokenRequest(
  what: string,
  call: () => Promise<Result>,
  clock: Clock,
  rejected: { type: Rejected; code: AuthErrorCode },
  secrets: readonly string[],
  previous?: TokenSet,
  sequence?: number,
): Promise<TokenSet> {
  const sentAt = clock.now();
  const result = await send(what, call);
  const data = result.data as TokenResponse | undefined;
  if (result.response.status === 200 && typeof data === "object" && data !== null && !Array.isArray(data)) {
    const problem = malformed(data);
    if (problem) {
      throw new UnexpectedResponseError(
        "unexpected_response",
        `${what} answered a malformed token response (${problem})`,
        {
          status: 200,
        },
      );
    }
    const date = result.response.headers.get("Date");
    return toTokenSet(data, clock.now(), date, previous, {
      sentAt,
      ...(sequence === undefined ? {} : { sequence }),
    });
  }
  throw failure(what, result, clock.now(), rejected, secrets);
}
