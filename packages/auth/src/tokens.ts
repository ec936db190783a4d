import type { AgentDetail, TokenResponse } from "@engage-voice/client";

/**
 * The highest `sequence` a stored set may carry; a higher one counts as 0. Far past any number of
 * renewals, and far enough below 2^53 that the next set's stays exact (a set at 2^53 - 1 jammed its key).
 */
export const MAX_SEQUENCE = 2 ** 48;

/** The lifetime the specification states, for access tokens whose expiry cannot be read. */
export const DEFAULT_LIFETIME_MS = 5 * 60_000;

/**
 * A token response with its expiry on the local clock. `expiresAt - obtainedAt` is the access
 * token's lifetime. Printed, logged or turned into JSON it shows `[redacted]` in place of the
 * tokens; to persist it, copy its fields (`{ ...tokens }`).
 */
export type TokenSet = TokenResponse & {
  readonly tokenType: "Bearer";
  /** When the access token expires: epoch ms on the local clock, corrected for the server's clock. */
  readonly expiresAt: number;
  /** When the token response arrived: epoch ms on the local clock. */
  readonly obtainedAt: number;
  /**
   * Orders the sets of one store without reading any clock: every renewal's set is one more than the
   * newest set its manager knew of. A set stored before this field existed counts as 0.
   */
  readonly sequence: number;
  /**
   * The tenant whose credentials obtained the set: a manager refuses a stored set of another tenant,
   * so a store shared by mistake never serves one customer another's session.
   */
  readonly tenant?: string;
};

/** What a session is about, without any secret. */
export interface Session {
  agentDetails: AgentDetail[];
  /** `agentDetails[].accountId`: the accounts to address in later calls. */
  accountIds: string[];
  adminId?: number;
  adminUrl?: string;
  agentUrl?: string;
  ssoLogin?: boolean;
  mainAccountId?: string;
  expiresAt: number;
}

const REDACTED = "[redacted]";

function redacted(this: TokenSet) {
  return {
    accessToken: REDACTED,
    ...(this.refreshToken ? { refreshToken: REDACTED } : {}),
    tokenType: this.tokenType,
    expiresAt: this.expiresAt,
    obtainedAt: this.obtainedAt,
    sequence: this.sequence,
    ...(this.tenant === undefined ? {} : { tenant: this.tenant }),
  };
}

function described(this: TokenSet) {
  return `TokenSet ${JSON.stringify(this)}`;
}

const proto = Object.create(Object.prototype, {
  toJSON: { value: redacted },
  toString: { value: described },
  [Symbol.for("nodejs.util.inspect.custom")]: { value: described },
});

type Fields = TokenResponse & { expiresAt: number; obtainedAt: number; sequence: number; tenant?: string };

/**
 * Copies fields one by one as own data properties: `Object.assign` would call the `__proto__` setter
 * for a `"__proto__"` key of parsed JSON and swap the redacting prototype away.
 */
function wrap(fields: Fields): TokenSet {
  const set = Object.create(proto);
  for (const key of Object.keys(fields)) {
    if (key === "__proto__") {
      continue;
    }
    Object.defineProperty(set, key, {
      value: fields[key as keyof Fields],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  set.tokenType = "Bearer";
  return set;
}

/** The `exp` and `iat` claims of a JWT, in seconds; empty for anything else. Signatures are not checked. */
export function claims(jwt: string): { exp?: unknown; iat?: unknown } {
  try {
    const payload = jwt.split(".")[1] ?? "";
    const parsed: unknown = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
    return typeof parsed === "object" && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

const seconds = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value) ? value * 1000 : NaN;

/** Whole-second claims and `Date` headers: the server's clock may be up to this far past them. */
const SECOND = 1000;

export interface Receipt {
  /** When the token call was sent (local clock); the answer was stamped between this and `receivedAt`. */
  sentAt?: number;
  /** The `sequence` of the new set; by default one more than `previous`'s. */
  sequence?: number;
}

/**
 * Builds a token set from a token response that arrived at `receivedAt` (local clock). The server's
 * clock is read from the JWT `iat` claim and the `Date` header, whichever is later, so the remaining
 * lifetime (`exp` minus server time) does not depend on the local clock being right. Both have
 * whole-second resolution and were stamped before the answer travelled back, so the expiry is the
 * earliest the token can expire: one second and the round trip before the naive one. Without `iat`
 * or `Date`, the local clock stands in for the server's. Without an `exp`, the access token is
 * taken to live 5 minutes. A response without a refresh token keeps `previous`'s.
 */
export function toTokenSet(
  response: TokenResponse,
  receivedAt: number,
  date: string | null,
  previous?: TokenSet,
  receipt: Receipt = {},
): TokenSet {
  const { exp, iat } = claims(response.accessToken);
  const serverNow = Math.max(...[seconds(iat), Date.parse(date ?? "")].filter(Number.isFinite));
  const roundTrip = Math.max(0, receivedAt - (receipt.sentAt ?? receivedAt));
  const remaining = Number.isFinite(seconds(exp))
    ? Number.isFinite(serverNow)
      ? seconds(exp) - serverNow - SECOND - roundTrip
      : seconds(exp) - receivedAt
    : DEFAULT_LIFETIME_MS;
  const fields: Fields = {
    ...response,
    expiresAt: receivedAt + Math.max(0, remaining),
    obtainedAt: receivedAt,
    sequence: receipt.sequence ?? (previous?.sequence ?? 0) + 1,
  };
  // A refresh continues its session: an answer that names no main account keeps the session's.
  if (fields.mainAccountId === undefined && previous?.mainAccountId !== undefined) {
    fields.mainAccountId = previous.mainAccountId;
  }
  const refreshToken = response.refreshToken || previous?.refreshToken;
  if (refreshToken) {
    fields.refreshToken = refreshToken;
  } else {
    delete fields.refreshToken;
  }
  return wrap(fields);
}

/** A stored `sequence` as every reader takes it: a whole number from 0 to `MAX_SEQUENCE`, else 0. */
export function sequenceOf(value: unknown): number {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= MAX_SEQUENCE
    ? (value as number)
    : 0;
}

/**
 * What a store kept (the fields of a token set, e.g. parsed from JSON), as a token set that prints
 * itself redacted; `undefined` when it is not one. For custom stores' `get`.
 */
export function fromStored(value: unknown): TokenSet | undefined {
  const v = value as Partial<TokenSet> | null | undefined;
  if (
    !isHeaderSafe(v?.accessToken) ||
    !Number.isFinite(v?.expiresAt) ||
    !Number.isFinite(v?.obtainedAt) ||
    (v?.refreshToken !== undefined && typeof v.refreshToken !== "string") ||
    (v?.tenant !== undefined && typeof v.tenant !== "string")
  ) {
    return undefined;
  }
  const sequence = sequenceOf(v?.sequence);
  return wrap({ ...(v as TokenSet), sequence });
}

/** Whether `tenant`'s credentials obtained the set: a manager takes no stored set of another tenant. */
export const obtainedBy = (tokens: TokenSet, tenant: string): boolean => tokens.tenant === tenant;

/** The same token set, stamped with the tenant whose credentials obtained it. */
export function boundTo(tokens: TokenSet, tenant: string): TokenSet {
  return tokens.tenant === tenant ? tokens : wrap({ ...tokens, tenant });
}

/** The same token set without its refresh token, once that token is known to be spent. */
export function withoutRefreshToken(tokens: TokenSet): TokenSet {
  const { refreshToken: _spent, ...rest } = tokens;
  return wrap(rest);
}

/**
 * Whether `value` can be sent as a header value as it is: visible ASCII, no spaces, no line breaks.
 * JWTs, refresh tokens and API tokens all are; anything else would fail inside fetch with a message
 * that quotes it.
 */
export function isHeaderSafe(value: unknown): value is string {
  return typeof value === "string" && /^[\x21-\x7e]{1,16384}$/.test(value);
}

export function toSession(tokens: TokenSet): Session {
  // An answer may hold anything here: only objects count as agents, only string IDs as account IDs.
  const agentDetails = (Array.isArray(tokens.agentDetails) ? tokens.agentDetails : []).filter(
    (agent): agent is AgentDetail => typeof agent === "object" && agent !== null,
  );
  const session: Session = {
    agentDetails,
    accountIds: agentDetails.map((agent) => agent.accountId).filter((id) => typeof id === "string"),
    expiresAt: tokens.expiresAt,
  };
  for (const key of ["adminId", "adminUrl", "agentUrl", "ssoLogin", "mainAccountId"] as const) {
    if (tokens[key] !== undefined) {
      Object.assign(session, { [key]: tokens[key] });
    }
  }
  return session;
}
