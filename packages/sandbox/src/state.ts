// The in-memory state both hosts share: sessions with rotating refresh tokens, permanent API tokens,
// rate-limit windows and queued faults. Nothing here depends on a runtime.

import type { PermanentApiToken, RefreshedTokenResponse, TokenResponse } from "@engage-voice/client";
import { FaultQueue } from "./faults.js";
import { base64UrlDecode, base64UrlEncode, JwtSigner } from "./jwt.js";
import type { ResolvedOptions } from "./options.js";
import { KeyedWindows, SlidingWindow } from "./rate-limit.js";
import { agentDetail, type SeedUser, Tenants } from "./seed.js";

/**
 * A session: one refresh-token family. Its tokens are not stored one by one: each names its family
 * and its generation (see `refreshTokenOf`), so a spent token is recognised, however many rotations
 * ago, from this one record, and a session costs the same after ten thousand refreshes as after one.
 */
interface Family {
  userId: number;
  /** Generation of the live token; every lower one is spent. */
  generation: number;
  /** The live token, compared whole: its random part is what makes it unguessable. */
  live: string;
  revoked: boolean;
}

/** Bytes of a refresh token: family id, generation (uint32), random part. */
const FAMILY_BYTES = 12;
const REFRESH_BYTES = FAMILY_BYTES + 4 + 16;
/** 32 bytes in unpadded base64url; the family id is its first 16 characters (12 bytes, no carry). */
const REFRESH_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const FAMILY_CHARS = 16;

function refreshTokenOf(family: string, generation: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(REFRESH_BYTES));
  bytes.set(base64UrlDecode(family) as Uint8Array, 0);
  new DataView(bytes.buffer).setUint32(FAMILY_BYTES, generation);
  return base64UrlEncode(bytes);
}

/** The family and generation a refresh token names, or `undefined` for what the sandbox never issued. */
function parseRefreshToken(token: string): { family: string; generation: number } | undefined {
  const bytes = REFRESH_TOKEN.test(token) ? base64UrlDecode(token) : undefined;
  if (bytes?.length !== REFRESH_BYTES) {
    return undefined;
  }
  return {
    family: token.slice(0, FAMILY_CHARS),
    generation: new DataView(bytes.buffer).getUint32(FAMILY_BYTES),
  };
}

export type RotateResult =
  | { ok: true; tokens: RefreshedTokenResponse }
  | { ok: false; reason: "unknown" | "spent" | "revoked" };

/** What a tenant's clients did, for tests that check each tenant's traffic (`control.counters(i)`). */
export interface TenantCounters {
  /** Exchanges answered with tokens. */
  exchanges: number;
  /** Exchanges refused with `429` (a parent token of the tenant, over the limit). */
  rateLimitedExchanges: number;
  /** Direct logins answered with tokens (deprecated host). */
  logins: number;
  /** Refreshes answered with tokens. */
  refreshes: number;
  /** Spent refresh tokens presented again (the first such presentation revokes the session). */
  reusedRefreshTokens: number;
}

const NO_COUNTS: Readonly<TenantCounters> = {
  exchanges: 0,
  rateLimitedExchanges: 0,
  logins: 0,
  refreshes: 0,
  reusedRefreshTokens: 0,
};

/** Prefix of permanent API tokens (`<prefix>:<uuid>`), like the real service's `aws80`. */
export const API_TOKEN_PREFIX = "sbx01";

export class SandboxState {
  readonly jwt = new JwtSigner();
  readonly faults: FaultQueue;
  readonly tenants: Tenants;
  /** Exchange windows by {@link exchangeKey}. */
  readonly exchangeWindows: KeyedWindows;
  readonly usersWindow: SlidingWindow;
  /** Only the tenants with traffic have an entry. */
  readonly #counters = new Map<number, TenantCounters>();
  readonly #families = new Map<string, Family>();
  /** Permanent API token -> user id; the map keeps creation order for listing. */
  readonly #apiTokens = new Map<string, number>();
  /** How far the control moved the clock past `options.now()`. */
  #offsetMs = 0;
  /**
   * `jti`s of access tokens issued since the last "expire every token now", and of those expired by
   * it, each with its `exp` in milliseconds, in the order issued (so in order of `exp`). Once `exp`
   * has passed the token answers `Jwt is expired` without them, and they are dropped.
   */
  readonly #liveJtis = new Map<string, number>();
  readonly #expiredJtis = new Map<string, number>();

  constructor(readonly options: ResolvedOptions) {
    this.faults = new FaultQueue(options.faultsEnabled);
    this.tenants = new Tenants(options.tenants);
    this.exchangeWindows = new KeyedWindows(options.exchangeRateLimit);
    this.usersWindow = new SlidingWindow(options.usersRateLimit);
  }

  now(): number {
    return this.options.now() + this.#offsetMs;
  }

  /** Moves the sandbox's clock forward: tokens expire and rate-limit windows pass as if time had. */
  advance(ms: number): void {
    this.#offsetMs += ms;
  }

  /** Every access token issued so far answers `Jwt is expired` from now on. */
  expireAccessTokens(): number {
    this.#pruneJtis();
    for (const [jti, exp] of this.#liveJtis) {
      this.#expiredJtis.set(jti, exp);
    }
    const count = this.#liveJtis.size;
    this.#liveJtis.clear();
    return count;
  }

  /**
   * Drops the `jti`s whose `exp` has passed, oldest first, stopping at the first still in force:
   * each call does the work of the tokens it drops. A clock moved back past a dropped token's
   * `exp` would let a token expired by the control answer again: no test needs that clock.
   */
  #pruneJtis(): void {
    const now = this.now();
    for (const jtis of [this.#liveJtis, this.#expiredJtis]) {
      for (const [jti, exp] of jtis) {
        if (exp > now) {
          break;
        }
        jtis.delete(jti);
      }
    }
  }

  /** What the state holds, for tests that show it stays bounded. */
  retained(): { refreshRecords: number; jtis: number; apiTokens: number } {
    return {
      refreshRecords: this.#families.size,
      jtis: this.#liveJtis.size + this.#expiredJtis.size,
      apiTokens: this.#apiTokens.size,
    };
  }

  isExpiredByControl(jti: unknown): boolean {
    return typeof jti === "string" && this.#expiredJtis.has(jti);
  }

  /** Revokes the session a refresh token belongs to, as a spent token presented twice would. */
  revokeSessionOf(refreshToken: string): boolean {
    const found = this.#familyOf(refreshToken);
    if (!found) {
      return false;
    }
    found.family.revoked = true;
    return true;
  }

  /**
   * The family of a token the sandbox issued, and whether that token is spent. A token of a
   * generation below the live one counts as spent without its random part being checked: only a
   * holder of a token of that family knows the family id, and such a holder can revoke its own
   * session anyway by presenting a spent token it has.
   */
  #familyOf(token: string): { family: Family; spent: boolean } | undefined {
    const parsed = parseRefreshToken(token);
    const family = parsed && this.#families.get(parsed.family);
    if (!parsed || !family || parsed.generation > family.generation) {
      return undefined;
    }
    if (parsed.generation === family.generation) {
      return token === family.live ? { family, spent: false } : undefined;
    }
    return { family, spent: true };
  }

  /**
   * Whose exchange window an exchange with `user`'s parent token takes a place in, under the
   * `exchangeRateLimitScope` option; an unknown parent token (no user) has a window of its own.
   */
  exchangeKey(user: SeedUser | undefined): string {
    const { exchangeRateLimitScope: scope } = this.options;
    if (scope === "global") {
      return "global";
    }
    if (!user) {
      return "unknown";
    }
    return scope === "user" ? `user:${user.userId}` : `tenant:${this.tenants.tenantOf(user).index}`;
  }

  count(user: SeedUser, counter: keyof TenantCounters): void {
    const index = this.tenants.tenantOf(user).index;
    let counters = this.#counters.get(index);
    if (!counters) {
      counters = { ...NO_COUNTS };
      this.#counters.set(index, counters);
    }
    counters[counter] += 1;
  }

  /** A copy of tenant `index`'s counters (zeros for a tenant without traffic). */
  counters(index: number): TenantCounters {
    return { ...(this.#counters.get(index) ?? NO_COUNTS) };
  }

  resetRateLimits(): void {
    this.exchangeWindows.reset();
    this.usersWindow.reset();
  }

  /** Back to the state of a fresh start: no sessions, no API tokens, no faults, the real clock. */
  reset(): void {
    this.#families.clear();
    this.#apiTokens.clear();
    this.#liveJtis.clear();
    this.#expiredJtis.clear();
    this.#offsetMs = 0;
    this.#counters.clear();
    this.faults.clear();
    this.resetRateLimits();
  }

  /**
   * A token response for `user`. `sessionId` continues a refresh-token family; `null` starts one,
   * `undefined` issues no refresh token at all. `extraClaims` go into the JWT.
   */
  async issueTokens(
    user: SeedUser,
    session: string | null,
    extraClaims?: Record<string, unknown>,
  ): Promise<RefreshedTokenResponse>;
  async issueTokens(
    user: SeedUser,
    session: string | null | undefined,
    extraClaims?: Record<string, unknown>,
  ): Promise<TokenResponse>;
  async issueTokens(
    user: SeedUser,
    session: string | null | undefined,
    extraClaims: Record<string, unknown> = {},
  ): Promise<TokenResponse> {
    this.#pruneJtis();
    const now = this.now();
    const iat = Math.floor(now / 1000);
    const exp = Math.floor((now + this.options.tokenLifetimeMs) / 1000);
    const jti = crypto.randomUUID();
    this.#liveJtis.set(jti, exp * 1000);
    // Before the first await: a rotation moves its family on before a second one can read it.
    const refreshToken = session === undefined ? undefined : this.#nextRefreshToken(user, session);
    const tenant = this.tenants.tenantOf(user);
    const { mainAccountId } = tenant.mainAccount;
    const accessToken = await this.jwt.sign({
      sub: String(user.userId),
      accountId: user.accountId,
      mainAccountId,
      agentId: user.agentId,
      ...extraClaims,
      jti,
      iat,
      exp,
    });
    return {
      accessToken,
      ...(refreshToken === undefined ? {} : { refreshToken }),
      tokenType: "Bearer",
      agentDetails: [agentDetail(tenant, user)],
      adminId: user.adminId,
      adminUrl: "/voice/admin/",
      agentUrl: "/voice/agent/",
      ssoLogin: false,
      mainAccountId,
    };
  }

  /** The next live token of family `session` (its generation moves on), or the first of a new one. */
  #nextRefreshToken(user: SeedUser, session: string | null): string {
    let id = session;
    if (id === null) {
      do {
        id = base64UrlEncode(crypto.getRandomValues(new Uint8Array(FAMILY_BYTES)));
      } while (this.#families.has(id));
    }
    const family = this.#families.get(id) ?? {
      userId: user.userId,
      generation: -1,
      live: "",
      revoked: false,
    };
    family.generation += 1;
    family.live = refreshTokenOf(id, family.generation);
    this.#families.set(id, family);
    return family.live;
  }

  /**
   * Spends a refresh token and issues the next one of its family. Presenting a spent token is
   * taken as theft or a lost answer: the whole family is revoked, and the caller must exchange
   * again. Access tokens already issued stay valid until their `exp`.
   */
  async rotate(refreshToken: string): Promise<RotateResult> {
    const found = this.#familyOf(refreshToken);
    if (!found) {
      return { ok: false, reason: "unknown" };
    }
    const { family, spent } = found;
    const user = this.tenants.user(family.userId);
    if (!user) {
      return { ok: false, reason: "unknown" };
    }
    if (spent) {
      this.count(user, "reusedRefreshTokens");
    }
    if (family.revoked) {
      return { ok: false, reason: "revoked" };
    }
    if (spent) {
      family.revoked = true;
      return { ok: false, reason: "spent" };
    }
    this.count(user, "refreshes");
    return { ok: true, tokens: await this.issueTokens(user, refreshToken.slice(0, FAMILY_CHARS)) };
  }

  createApiToken(userId: number): PermanentApiToken {
    const token = `${API_TOKEN_PREFIX}:${crypto.randomUUID()}`;
    this.#apiTokens.set(token, userId);
    return token;
  }

  listApiTokens(userId: number): PermanentApiToken[] {
    return [...this.#apiTokens].filter(([, owner]) => owner === userId).map(([token]) => token);
  }

  /** Deletes a token of `userId`; another user's token is as unknown as a made-up one. */
  deleteApiToken(userId: number, token: string): boolean {
    if (this.#apiTokens.get(token) !== userId) {
      return false;
    }
    return this.#apiTokens.delete(token);
  }

  apiTokenOwner(token: string): number | undefined {
    return this.#apiTokens.get(token);
  }
}
