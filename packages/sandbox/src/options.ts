import {
  DEFAULT_LEGACY_LOGINS,
  DEFAULT_PARENT_TOKENS,
  type LegacyLogin,
  MAX_TENANTS,
  Tenants,
} from "./seed.js";

/**
 * What the sandbox does unless told otherwise: the real service's access-token lifetime and the
 * rate limits observed on it. The command line's help and the README state them from here.
 */
export const SANDBOX_DEFAULTS = {
  tokenLifetimeMs: 300_000,
  exchangeRateLimit: { limit: 5, windowMs: 60_000 },
  usersRateLimit: { limit: 120, windowMs: 60_000 },
  /**
   * Public material gives the exchange limit without its scope. Per tenant (main account) is the
   * narrower of the likely scopes, user or account: a client that stays within it stays within
   * either; one window for every tenant would let one customer of a vendor lock out the others.
   */
  exchangeRateLimitScope: "tenant",
  tenants: 0,
} as const;

/** Whose exchanges share one rate-limit window: each tenant's, each user's, or everyone's. */
export const EXCHANGE_RATE_LIMIT_SCOPES = ["tenant", "user", "global"] as const;
export type ExchangeRateLimitScope = (typeof EXCHANGE_RATE_LIMIT_SCOPES)[number];

export interface RateLimit {
  /** Requests allowed in a window. */
  limit: number;
  /** Length of the sliding window, in milliseconds. */
  windowMs: number;
}

export interface SandboxOptions {
  /** Lifetime of access tokens in milliseconds, at least 1000 (JWT times are whole seconds). Default 300000. */
  tokenLifetimeMs?: number;
  /** Default 5 a minute, as observed on the real service. */
  exchangeRateLimit?: RateLimit;
  /**
   * Whose exchanges share the `exchangeRateLimit` window: `"tenant"` (the default: each main
   * account its own, its users together), `"user"` (each user its own) or `"global"` (one window for
   * every exchange of the sandbox). Under `"tenant"` and `"user"`, unknown parent tokens share a
   * window of their own.
   */
  exchangeRateLimitScope?: ExchangeRateLimitScope;
  /** Default 120 a minute, as observed on the real service. */
  usersRateLimit?: RateLimit;
  /**
   * Tenants to seed beside the default one (tenant 0), from 0 (the default) to 1000000: tenant i
   * (1 to N) is a main account of its own, a copy of the default seed under ids with i in front,
   * with the parent tokens `sandbox-rc-token-tenant-<i>-ada` and `-rob`. Built when first used, so
   * any number starts at once.
   */
  tenants?: number;
  /** Parent-platform tokens the exchange accepts, each mapped to a seeded user id (of any tenant). */
  parentTokens?: Readonly<Record<string, number>>;
  /** Credentials of the deprecated direct login. */
  legacyLogins?: readonly LegacyLogin[];
  /** Largest request body accepted, in bytes. Default 16384. */
  maxBodyBytes?: number;
  /** The clock, in epoch milliseconds: JWT times, rate limits, `Date` and `timestamp`. Default `Date.now`. */
  now?: () => number;
  /** Fault injection for tests. Off by default; when off, nothing of it can be reached. */
  faults?: { enabled: boolean };
  /**
   * Time and state control for tests: advance the clock, expire every token, revoke a session,
   * reset the rate limits or everything; in process (`control`) and over HTTP on `POST
   * /__sandbox/control`. Off by default; when off, the HTTP path does not exist.
   */
  control?: { enabled: boolean };
  /**
   * Destroys the connection a request came in on, given the runtime's `c.env` (the Node entry
   * passes one). Without it a dropped response is simulated by a body stream that errors.
   */
  dropConnection?: (env: unknown) => void;
  /**
   * Where the sandbox reports a failure of its own: an unexpected error, answered `500`. The message
   * names the operation by its path template (never a token from the path) and carries the stack,
   * not the error's message, which may quote a request. Shaped as `@engage-voice/auth`'s `Logger`,
   * so one logger serves both. Default: `createSandboxApps` writes nowhere (it may run in a worker
   * or a browser); `startSandbox`, the Node entry, writes to stderr.
   */
  logger?: SandboxLogger;
}

/** Receives the sandbox's reports of its own failures; the other levels are never called. */
export interface SandboxLogger {
  error?(message: string): void;
}

export interface ResolvedOptions {
  tokenLifetimeMs: number;
  exchangeRateLimit: RateLimit;
  exchangeRateLimitScope: ExchangeRateLimitScope;
  usersRateLimit: RateLimit;
  tenants: number;
  parentTokens: Readonly<Record<string, number>>;
  legacyLogins: readonly LegacyLogin[];
  maxBodyBytes: number;
  now: () => number;
  faultsEnabled: boolean;
  controlEnabled: boolean;
  dropConnection: ((env: unknown) => void) | undefined;
  logger: SandboxLogger | undefined;
}

/** Raised for sandbox options that cannot work, before anything starts. */
export class SandboxOptionsError extends TypeError {
  override readonly name = "SandboxOptionsError";
  readonly code = "invalid_sandbox_options";
}

function positiveInteger(value: unknown, name: string, minimum = 1): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < minimum) {
    throw new SandboxOptionsError(`${name} must be an integer of at least ${minimum}`);
  }
  return value;
}

function rateLimit(value: RateLimit | undefined, fallback: RateLimit, name: string): RateLimit {
  if (value === undefined) {
    return fallback;
  }
  return {
    limit: positiveInteger(value.limit, `${name}.limit`),
    windowMs: positiveInteger(value.windowMs, `${name}.windowMs`),
  };
}

function nonEmpty(value: unknown, name: string): void {
  if (typeof value !== "string" || value === "") {
    throw new SandboxOptionsError(`${name} must be a non-empty string`);
  }
}

function tenantCount(value: unknown): number {
  if (value === undefined) {
    return SANDBOX_DEFAULTS.tenants;
  }
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_TENANTS) {
    throw new SandboxOptionsError(
      `tenants must be an integer from 0 to ${MAX_TENANTS}: the number of tenants seeded beside the default one, such as tenants: 100`,
    );
  }
  return value;
}

/** `"a", "b" or "c"`. */
export function quotedList(names: readonly string[]): string {
  const quoted = names.map((name) => `"${name}"`);
  return `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

function scope(value: unknown): ExchangeRateLimitScope {
  if (value === undefined) {
    return SANDBOX_DEFAULTS.exchangeRateLimitScope;
  }
  if (!(EXCHANGE_RATE_LIMIT_SCOPES as readonly unknown[]).includes(value)) {
    throw new SandboxOptionsError(
      `exchangeRateLimitScope must be ${quotedList(EXCHANGE_RATE_LIMIT_SCOPES)}: "global" for one window for every exchange`,
    );
  }
  return value as ExchangeRateLimitScope;
}

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const tenants = tenantCount(options.tenants);
  const directory = new Tenants(tenants);
  const parentTokens = options.parentTokens ?? DEFAULT_PARENT_TOKENS;
  for (const [token, userId] of Object.entries(parentTokens)) {
    nonEmpty(token, "a parent token");
    if (!directory.user(userId)) {
      throw new SandboxOptionsError(`parentTokens maps a token to unknown user id ${userId}`);
    }
  }
  const legacyLogins = options.legacyLogins ?? DEFAULT_LEGACY_LOGINS;
  for (const login of legacyLogins) {
    nonEmpty(login.username, "legacyLogins[].username");
    nonEmpty(login.password, "legacyLogins[].password");
    nonEmpty(login.platformId, "legacyLogins[].platformId");
    if (!directory.user(login.userId)) {
      throw new SandboxOptionsError(`legacyLogins names unknown user id ${login.userId}`);
    }
  }
  if (options.now !== undefined && typeof options.now !== "function") {
    throw new SandboxOptionsError("now must be a function returning epoch milliseconds");
  }
  const { logger } = options;
  if (
    logger !== undefined &&
    (typeof logger !== "object" ||
      logger === null ||
      (logger.error !== undefined && typeof logger.error !== "function"))
  ) {
    throw new SandboxOptionsError("logger must be an object with an error(message) method");
  }
  return {
    tokenLifetimeMs: positiveInteger(
      options.tokenLifetimeMs ?? SANDBOX_DEFAULTS.tokenLifetimeMs,
      "tokenLifetimeMs",
      1000,
    ),
    exchangeRateLimit: rateLimit(
      options.exchangeRateLimit,
      SANDBOX_DEFAULTS.exchangeRateLimit,
      "exchangeRateLimit",
    ),
    exchangeRateLimitScope: scope(options.exchangeRateLimitScope),
    usersRateLimit: rateLimit(options.usersRateLimit, SANDBOX_DEFAULTS.usersRateLimit, "usersRateLimit"),
    tenants,
    parentTokens,
    legacyLogins,
    maxBodyBytes: positiveInteger(options.maxBodyBytes ?? 16_384, "maxBodyBytes"),
    now: options.now ?? Date.now,
    faultsEnabled: options.faults?.enabled === true,
    controlEnabled: options.control?.enabled === true,
    dropConnection: options.dropConnection,
    logger,
  };
}
