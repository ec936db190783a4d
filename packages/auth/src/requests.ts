import { isApiError, ResponseParseError, retryAfterMs, type TokenResponse } from "@engage-voice/client";
import { quotableErrorCode } from "@engage-voice/client/internal";
import {
  type AuthErrorCode,
  type EngageVoiceAuthError,
  NetworkError,
  RateLimitedError,
  UnexpectedResponseError,
} from "./errors.js";
import { ResponseTooLargeError } from "./limited-fetch.js";
import { isHeaderSafe, type TokenSet, toTokenSet } from "./tokens.js";
import type { Clock, FetchLike } from "./types.js";

type Result = { data?: unknown; error?: unknown; response: Response };
type Rejected = new (
  code: AuthErrorCode,
  message: string,
  options: { status: number },
) => EngageVoiceAuthError;

/** Looked up on each call, so a fetch installed later (a test, a polyfill) is used; never called as a method. */
export const globalFetch: FetchLike = (request, init) => fetch(request, init);

/**
 * Options that every credentialed request of this package takes: a redirect is not followed, so it
 * cannot carry a credential elsewhere. The deadline is kept by {@link limitedFetch}.
 */
export const requestInit = { redirect: "manual" } as const;

/** A `429` without a readable `Retry-After`: what the server meant cannot be known. */
const FALLBACK_WAIT_MS = 60_000;

/** The `errorCode` of an answer when the client's rule lets it be quoted. */
function quotableCode(error: unknown, secrets: readonly string[]): string | undefined {
  return isApiError(error) ? quotableErrorCode(error.errorCode, secrets) : undefined;
}

/**
 * The error for a failed answer. Only the platform's dotted `errorCode` is quoted: its other
 * fields may echo a token (a delete's `requestUri` holds the API token it deletes).
 */
export function failure(
  what: string,
  result: Result,
  now: number,
  rejected?: Refusal,
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
    return new RateLimitedError(
      retryAfterMs(result.response, now) ?? FALLBACK_WAIT_MS,
      `${what} was rate limited${detail}${rejected?.rateLimited ? `: ${rejected.rateLimited}` : ""}`,
      {
        status,
      },
    );
  }
  const empty = result.response.ok ? " without the expected content" : "";
  const missing = status === 404 && rejected?.notFound ? `: ${rejected.notFound}` : "";
  return new UnexpectedResponseError(
    "unexpected_response",
    `${what} answered ${status}${empty}${detail}${missing}`,
    {
      status,
    },
  );
}

/** How a call's refusal is reported: its error type and code, and what to do about it. */
export interface Refusal {
  type: Rejected;
  code: AuthErrorCode;
  /** The statuses that are a refusal; default 400 and 401. */
  statuses?: readonly number[];
  /** What the refusal means and what to do. */
  hint?: string;
  /** What a 404 means here and what to do: the host has no such endpoint. */
  notFound?: string;
  /** What to do about a `429`, beside waiting. */
  rateLimited?: string;
  /** Which host did not answer, and what to check. */
  noAnswer?: string;
}

/**
 * Makes one request through a generated client, turning a thrown failure into a typed error;
 * `noAnswer` says which host did not answer and what to check.
 */
export async function send(what: string, call: () => Promise<Result>, noAnswer?: string): Promise<Result> {
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
    throw new NetworkError(what, error, noAnswer);
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
  rejected: Refusal,
  secrets: readonly string[],
  previous?: TokenSet,
  sequence?: number,
): Promise<TokenSet> {
  const sentAt = clock.now();
  const result = await send(what, call, rejected.noAnswer);
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
