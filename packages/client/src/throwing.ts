// The opt-in to exceptions, for code that wants them (a TanStack Query `queryFn`, an axios habit):
// openapi-fetch's `{ data, error, response }` stays the default, as its maintainers keep it (a failed
// status is an answer, not an exception), and `orThrow()` turns one call's result into its data or
// an error class per status family, as openai-node's users catch `NotFoundError` or `RateLimitError`.
import { quotableErrorCode } from "./error-code.js";
import { printablePath } from "./path-templates.js";
import { retryAfterMs } from "./retry-after.js";

/**
 * A call answered with a status that is not a success. `body` is the parsed answer (the platform's
 * `ApiError` for most operations); the message quotes only its dotted `errorCode`, never its other
 * fields, which may echo a credential.
 */
export class ApiResponseError extends Error {
  override name = "ApiResponseError";
  readonly status: number;
  /** The platform's dotted `errorCode`, when the answer carried one. */
  readonly errorCode: string | undefined;
  constructor(
    readonly response: Response,
    readonly body: unknown,
  ) {
    const code = quotableErrorCode((body as { errorCode?: unknown } | null)?.errorCode);
    let path = "";
    try {
      path = printablePath(new URL(response.url).pathname);
    } catch {
      // A response made by hand (a test's, a mock's) may have no URL.
    }
    super(`${path ? `${path} ` : ""}answered ${response.status}${code ? ` (${code})` : ""}`);
    this.status = response.status;
    this.errorCode = code;
  }
}

/** 400: the request is malformed (a field, a value): fix it, do not retry. */
export class BadRequestError extends ApiResponseError {
  override name = "BadRequestError";
}
/** 401: the credential is missing, expired or not accepted. */
export class AuthenticationError extends ApiResponseError {
  override name = "AuthenticationError";
}
/** 403: the credential is valid but may not do this. */
export class PermissionDeniedError extends ApiResponseError {
  override name = "PermissionDeniedError";
}
/** 404: no such resource (or operation on this host). */
export class NotFoundError extends ApiResponseError {
  override name = "NotFoundError";
}
/** 409: the resource's state does not allow it. */
export class ConflictError extends ApiResponseError {
  override name = "ConflictError";
}
/** 429: too many requests; `retryAfterMs` is the server's `Retry-After`, when it sent one. */
export class RateLimitError extends ApiResponseError {
  override name = "RateLimitError";
  readonly retryAfterMs: number | undefined = retryAfterMs(this.response, Date.now());
}
/** 5xx: the service failed; an idempotent call may be tried again later. */
export class ServerError extends ApiResponseError {
  override name = "ServerError";
}

const BY_STATUS: Record<number, typeof ApiResponseError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

/** The error class of a failed answer's status. */
export function errorOf(response: Response, body: unknown): ApiResponseError {
  const Type = BY_STATUS[response.status] ?? (response.status >= 500 ? ServerError : ApiResponseError);
  return new Type(response, body);
}

type Result = { data?: unknown; error?: unknown; response: Response };
/** The data of an openapi-fetch result's success branch. */
export type DataOf<R> = R extends { data: infer D; error?: never } ? D : never;

/**
 * One call's data, or its failed answer thrown as the error class of its status:
 * `const users = await orThrow(client.GET("/voice/api/v1/admin/users"))`. A call that got no answer
 * (a deadline, the network) rejects as it does without it.
 */
export async function orThrow<R extends Result>(call: Promise<R> | R): Promise<DataOf<R>> {
  const result = await call;
  if (result.error !== undefined || !result.response.ok) {
    throw errorOf(result.response, result.error);
  }
  return result.data as DataOf<R>;
}
