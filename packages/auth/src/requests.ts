import { isApiError, ResponseParseError, type TokenResponse } from "@engage-voice/client";
import {
  type EngageVoiceAuthError,
  NetworkError,
  RateLimitedError,
  UnexpectedResponseError,
} from "./errors.js";
import { type TokenSet, toTokenSet } from "./tokens.js";
import type { Clock, FetchLike, Logger } from "./types.js";

type Result = { data?: unknown; error?: unknown; response: Response };
type Rejected = new (code: string, message: string, options: { status: number }) => EngageVoiceAuthError;

/** Looked up on each call, so a fetch installed later (a test, a polyfill) is used; never called as a method. */
export const globalFetch: FetchLike = (request) => fetch(request);

export const consoleLogger: Logger = {
  warn: (message) => console.warn(message),
  error: (message) => console.error(message),
};

/** Options that every request of this package takes; `AbortSignal.timeout` keeps no process alive. */
export const requestInit = (timeoutMs: number) =>
  ({ redirect: "manual", signal: AbortSignal.timeout(timeoutMs) }) as const;

const MAX_WAIT_MS = 3_600_000;

/** `Retry-After` in ms: seconds or an HTTP date (read against the response's own `Date`); 60 s if absent. */
export function retryAfterMs(response: Response, now: number): number {
  const value = response.headers.get("Retry-After")?.trim() ?? "";
  const wait = /^\d+$/.test(value)
    ? Number(value) * 1000
    : Date.parse(value) - (Date.parse(response.headers.get("Date") ?? "") || now);
  return Math.min(Math.max(Number.isNaN(wait) ? 60_000 : wait, 0), MAX_WAIT_MS);
}

/**
 * The error for a failed answer. Only the platform's dotted `errorCode` is quoted: its other
 * fields may echo a token (a delete's `requestUri` holds the API token it deletes).
 */
export function failure(
  what: string,
  result: Result,
  now: number,
  rejected?: { type: Rejected; code: string },
): EngageVoiceAuthError {
  const { status } = result.response;
  const code = isApiError(result.error) && /^[\w.-]{1,80}$/.test(result.error.errorCode);
  const detail = code ? ` (${(result.error as { errorCode: string }).errorCode})` : "";
  if (rejected && (status === 400 || status === 401)) {
    return new rejected.type(rejected.code, `${what} was refused with ${status}${detail}`, { status });
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
    if (error instanceof ResponseParseError) {
      throw new UnexpectedResponseError("unexpected_response", `${what} answered a body that is not JSON`, {
        status: error.status,
      });
    }
    throw new NetworkError(what, error);
  }
}

/** A token call (exchange, refresh, direct login): a token set, or the typed error. */
export async function tokenRequest(
  what: string,
  call: () => Promise<Result>,
  clock: Clock,
  rejected: { type: Rejected; code: string },
  previous?: TokenSet,
): Promise<TokenSet> {
  const result = await send(what, call);
  const data = result.data as TokenResponse | undefined;
  if (result.response.status === 200 && typeof data?.accessToken === "string" && data.accessToken) {
    return toTokenSet(data, clock.now(), result.response.headers.get("Date"), previous);
  }
  throw failure(what, result, clock.now(), rejected);
}
