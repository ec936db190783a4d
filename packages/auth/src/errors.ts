const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/**
 * `false` in the build of the `production` export condition (src/production.d.ts). A message that
 * explains a fix is written `VERBOSE ? "the explanation" : "the subject"`, so that build ships the
 * subject only; its error still carries the code and {@link ERRORS_DOCS}, which say the rest.
 */
export const VERBOSE = typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined";

/** Where each `code` is explained: the message of every error of the production build links it. */
export const ERRORS_DOCS = "https://github.com/engage-voice/engage-voice-sdk/tree/main/packages/auth#errors";

/**
 * Reduces a foreign error to its name and system code. Its message may quote a URL with a password
 * in the query, a header or a body, so it never travels on.
 */
export function safeCause(cause: unknown): Error | undefined {
  if (cause instanceof EngageVoiceAuthError || cause === undefined) {
    return cause;
  }
  const { name, code } = (cause ?? {}) as { name?: unknown; code?: unknown };
  const nested = (cause as { cause?: { code?: unknown } } | null)?.cause?.code;
  const system = [code, nested].find((c) => typeof c === "string" && /^[A-Z][A-Z0-9_]{1,40}$/.test(c));
  return new Error(`${typeof name === "string" ? name : "Error"}${system ? ` (${system})` : ""}`);
}

/**
 * Every `code` this package's errors carry. A union of literals, so that a misspelt comparison
 * (`error.code === "exchange_rejectd"`) does not compile.
 */
export type AuthErrorCode =
  | "invalid_options"
  | "transport_refused"
  | "origin_mismatch"
  | "exchange_rejected"
  | "refresh_rejected"
  | "login_rejected"
  | "reauth_required"
  | "parent_token_failed"
  | "credential_rejected"
  | "bearer_required"
  | "rate_limited"
  | "network_error"
  | "response_too_large"
  | "unexpected_response"
  | "request_not_replayable"
  | "store_failed"
  | "logged_out"
  | "tenant_mismatch"
  | "closed";

export interface ErrorOptions {
  status?: number | undefined;
  cause?: unknown;
}

/**
 * The base of every error this package throws. `code` is stable and meant for programs; `message`
 * is for people. No error carries a token, password or API token, in its message, stack, `cause`,
 * JSON or inspected form.
 */
export class EngageVoiceAuthError extends Error {
  override readonly name: string = "EngageVoiceAuthError";
  // Declared, not initialised: the constructors assign them, and a field would only repeat that.
  declare readonly code: AuthErrorCode;
  declare readonly status: number | undefined;

  constructor(code: AuthErrorCode, message: string, options: ErrorOptions = {}) {
    super(
      VERBOSE ? message : `${code} (${message}): see ${ERRORS_DOCS}`,
      options.cause === undefined ? undefined : { cause: safeCause(options.cause) },
    );
    this.code = code;
    this.status = options.status;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, status: this.status, message: this.message };
  }

  [INSPECT](): string {
    const cause = this.cause === undefined ? "" : `\n  [cause]: ${String(this.cause)}`;
    return `${this.stack}\n  { code: '${this.code}', status: ${this.status} }${cause}`;
  }
}

/** A log-safe description: this package's messages hold no secret; foreign ones are not quoted. */
export function describe(error: unknown): string {
  return error instanceof EngageVoiceAuthError ? error.message : String(safeCause(error));
}

/** A token store that could not do its part: the message says which part, the cause why. */
export function storeFailed(message: string, cause?: unknown): EngageVoiceAuthError {
  return new EngageVoiceAuthError("store_failed", message, cause === undefined ? {} : { cause });
}

/** The exchange endpoint refused the parent-platform token (or its form): get a new parent token. */
export class ExchangeRejectedError extends EngageVoiceAuthError {
  declare readonly code: "exchange_rejected";
  override readonly name = "ExchangeRejectedError";
}

/** The refresh endpoint refused the refresh token: it is unknown, expired or already spent. */
export class RefreshRejectedError extends EngageVoiceAuthError {
  declare readonly code: "refresh_rejected";
  override readonly name = "RefreshRejectedError";
}

/** The deprecated direct login refused the username, password or platform ID. */
export class LoginRejectedError extends EngageVoiceAuthError {
  declare readonly code: "login_rejected";
  override readonly name = "LoginRejectedError";
}

/**
 * The session cannot be renewed without the user: the refresh token was refused and the one new
 * exchange that followed failed too (`cause` says why). Every caller waiting on that renewal gets
 * the same instance.
 */
export class ReauthRequiredError extends EngageVoiceAuthError {
  declare readonly code: "reauth_required";
  override readonly name = "ReauthRequiredError";
  /** The refusal of the refresh token that started it. */
  declare readonly refreshError: RefreshRejectedError;

  constructor(refreshError: RefreshRejectedError, cause: unknown) {
    const code = cause instanceof EngageVoiceAuthError ? cause.code : "error";
    super(
      "reauth_required",
      VERBOSE
        ? `The refresh token was refused and the new exchange failed (${code}): the session must start again`
        : code,
      { status: (cause as { status?: number }).status, cause },
    );
    this.refreshError = refreshError;
  }
}

/** Too many calls: `retryAfterMs` says when the next one may be made. */
export class RateLimitedError extends EngageVoiceAuthError {
  declare readonly code: "rate_limited";
  override readonly name = "RateLimitedError";
  declare readonly retryAfterMs: number;

  constructor(retryAfterMs: number, message: string, options: ErrorOptions = {}) {
    super("rate_limited", `${message}; retry in ${Math.ceil(retryAfterMs / 1000)} s`, options);
    this.retryAfterMs = retryAfterMs;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfterMs: this.retryAfterMs };
  }
}

/** Credentials would travel over plain HTTP to a host that is not loopback. */
export class TransportRefusedError extends EngageVoiceAuthError {
  declare readonly code: "transport_refused";
  override readonly name = "TransportRefusedError";
}

/** An answer the specification does not allow: an unexpected status, a 5xx, or a body without a token. */
export class UnexpectedResponseError extends EngageVoiceAuthError {
  declare readonly code: "unexpected_response";
  override readonly name = "UnexpectedResponseError";
}

/** The request did not get an answer: the connection failed, or it timed out (`timedOut`). */
export class NetworkError extends EngageVoiceAuthError {
  declare readonly code: "network_error";
  override readonly name = "NetworkError";
  declare readonly timedOut: boolean;

  /** `hint`: where the request went and what to check, said after what happened. */
  constructor(what: string, cause: unknown, hint = "") {
    const name = (cause as { name?: unknown } | null)?.name;
    const timedOut = name === "TimeoutError" || name === "AbortError" || name === "RequestTimeoutError";
    super("network_error", `${what} ${timedOut ? "timed out" : "got no answer"}${hint && `: ${hint}`}`, {
      cause,
    });
    this.timedOut = timedOut;
  }
}

/**
 * The credential of a call on the deprecated host was refused (`401`/`403`): an API token that was
 * deleted or never existed, or an access token that expired. Get a new one; trying again will not help.
 */
export class CredentialRejectedError extends EngageVoiceAuthError {
  declare readonly code: "credential_rejected";
  override readonly name = "CredentialRejectedError";
}

/**
 * A token manager's middleware was used on a client of another origin: it would send nothing, and
 * the call would fail with a bare `401`.
 */
export class OriginMismatchError extends EngageVoiceAuthError {
  declare readonly code: "origin_mismatch";
  override readonly name = "OriginMismatchError";
}

/** Failures worth another try later: no answer, a 5xx or a 408. */
export function isTransient(error: unknown): boolean {
  return (
    error instanceof NetworkError ||
    (error instanceof UnexpectedResponseError && (error.status === 408 || (error.status ?? 0) >= 500))
  );
}
