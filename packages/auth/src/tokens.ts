import type { AgentDetail, TokenResponse } from "@engage-voice/client";

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

function wrap(fields: TokenResponse & { expiresAt: number; obtainedAt: number }): TokenSet {
  return Object.assign(Object.create(proto), fields, { tokenType: "Bearer" });
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

/**
 * Builds a token set from a token response that arrived at `receivedAt` (local clock). The server's
 * clock is read from the JWT `iat` claim and the `Date` header, whichever is later, so the remaining
 * lifetime (`exp` minus server time) does not depend on the local clock being right. Without an
 * `exp`, the access token is taken to live 5 minutes. A response without a refresh token keeps
 * `previous`'s.
 */
export function toTokenSet(
  response: TokenResponse,
  receivedAt: number,
  date: string | null,
  previous?: TokenSet,
): TokenSet {
  const { exp, iat } = claims(response.accessToken);
  const serverNow = Math.max(...[seconds(iat), Date.parse(date ?? "")].filter(Number.isFinite));
  const remaining = Number.isFinite(seconds(exp))
    ? seconds(exp) - (Number.isFinite(serverNow) ? serverNow : receivedAt)
    : DEFAULT_LIFETIME_MS;
  const fields = { ...response, expiresAt: receivedAt + Math.max(0, remaining), obtainedAt: receivedAt };
  const refreshToken = response.refreshToken || previous?.refreshToken;
  if (refreshToken) fields.refreshToken = refreshToken;
  else delete fields.refreshToken;
  return wrap(fields);
}

/**
 * What a store kept (the fields of a token set, e.g. parsed from JSON), as a token set that prints
 * itself redacted; `undefined` when it is not one. For custom stores' `get`.
 */
export function fromStored(value: unknown): TokenSet | undefined {
  const v = value as Partial<TokenSet> | null | undefined;
  if (
    typeof v?.accessToken !== "string" ||
    v.accessToken === "" ||
    typeof v.expiresAt !== "number" ||
    typeof v.obtainedAt !== "number" ||
    (v.refreshToken !== undefined && typeof v.refreshToken !== "string")
  ) {
    return undefined;
  }
  return wrap(v as TokenSet);
}

/** The same token set without its refresh token, once that token is known to be spent. */
export function withoutRefreshToken(tokens: TokenSet): TokenSet {
  const { refreshToken: _spent, ...rest } = tokens;
  return wrap(rest);
}

export function toSession(tokens: TokenSet): Session {
  const agentDetails = tokens.agentDetails ?? [];
  const session: Session = {
    agentDetails,
    accountIds: agentDetails.map((agent) => agent.accountId),
    expiresAt: tokens.expiresAt,
  };
  for (const key of ["adminId", "adminUrl", "agentUrl", "ssoLogin", "mainAccountId"] as const) {
    if (tokens[key] !== undefined) Object.assign(session, { [key]: tokens[key] });
  }
  return session;
}
