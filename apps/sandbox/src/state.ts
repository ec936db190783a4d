// The in-memory state both hosts share: sessions with rotating refresh tokens, permanent API tokens,
// rate-limit windows and queued faults. Nothing here depends on a runtime.

import type { PermanentApiToken, RefreshedTokenResponse, TokenResponse } from "@engage-voice/client";
import { FaultQueue } from "./faults.js";
import { JwtSigner } from "./jwt.js";
import type { ResolvedOptions } from "./options.js";
import { SlidingWindow } from "./rate-limit.js";
import { agentDetail, findUser, MAIN_ACCOUNT, type SeedUser } from "./seed.js";

interface RefreshRecord {
  sessionId: string;
  userId: number;
  spent: boolean;
}

export type RotateResult =
  | { ok: true; tokens: RefreshedTokenResponse }
  | { ok: false; reason: "unknown" | "spent" | "revoked" };

/** Prefix of permanent API tokens (`<prefix>:<uuid>`), like the real service's `aws80`. */
export const API_TOKEN_PREFIX = "sbx01";

export class SandboxState {
  readonly jwt = new JwtSigner();
  readonly faults: FaultQueue;
  readonly exchangeWindow: SlidingWindow;
  readonly usersWindow: SlidingWindow;
  readonly #refreshTokens = new Map<string, RefreshRecord>();
  readonly #revokedSessions = new Set<string>();
  /** Permanent API token -> user id; the map keeps creation order for listing. */
  readonly #apiTokens = new Map<string, number>();
  /** How far the control moved the clock past `options.now()`. */
  #offsetMs = 0;
  /** `jti`s of access tokens issued since the last "expire every token now", and of those expired by it. */
  readonly #liveJtis = new Set<string>();
  readonly #expiredJtis = new Set<string>();

  constructor(readonly options: ResolvedOptions) {
    this.faults = new FaultQueue(options.faultsEnabled);
    this.exchangeWindow = new SlidingWindow(options.exchangeRateLimit);
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
    for (const jti of this.#liveJtis) {
      this.#expiredJtis.add(jti);
    }
    const count = this.#liveJtis.size;
    this.#liveJtis.clear();
    return count;
  }

  isExpiredByControl(jti: unknown): boolean {
    return typeof jti === "string" && this.#expiredJtis.has(jti);
  }

  /** Revokes the session a refresh token belongs to, as a spent token presented twice would. */
  revokeSessionOf(refreshToken: string): boolean {
    const record = this.#refreshTokens.get(refreshToken);
    if (!record) {
      return false;
    }
    this.#revokedSessions.add(record.sessionId);
    return true;
  }

  resetRateLimits(): void {
    this.exchangeWindow.reset();
    this.usersWindow.reset();
  }

  /** Back to the state of a fresh start: no sessions, no API tokens, no faults, the real clock. */
  reset(): void {
    this.#refreshTokens.clear();
    this.#revokedSessions.clear();
    this.#apiTokens.clear();
    this.#liveJtis.clear();
    this.#expiredJtis.clear();
    this.#offsetMs = 0;
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
    const now = this.now();
    const iat = Math.floor(now / 1000);
    const jti = crypto.randomUUID();
    this.#liveJtis.add(jti);
    const accessToken = await this.jwt.sign({
      sub: String(user.userId),
      accountId: user.accountId,
      mainAccountId: MAIN_ACCOUNT.mainAccountId,
      agentId: user.agentId,
      ...extraClaims,
      jti,
      iat,
      exp: Math.floor((now + this.options.tokenLifetimeMs) / 1000),
    });
    let refreshToken: string | undefined;
    if (session !== undefined) {
      refreshToken = crypto.randomUUID();
      this.#refreshTokens.set(refreshToken, {
        sessionId: session ?? crypto.randomUUID(),
        userId: user.userId,
        spent: false,
      });
    }
    return {
      accessToken,
      ...(refreshToken === undefined ? {} : { refreshToken }),
      tokenType: "Bearer",
      agentDetails: [agentDetail(user)],
      adminId: user.adminId,
      adminUrl: "/voice/admin/",
      agentUrl: "/voice/agent/",
      ssoLogin: false,
      mainAccountId: MAIN_ACCOUNT.mainAccountId,
    };
  }

  /**
   * Spends a refresh token and issues the next one of its family. Presenting a spent token is
   * taken as theft or a lost answer: the whole family is revoked, and the caller must exchange
   * again. Access tokens already issued stay valid until their `exp`.
   */
  async rotate(refreshToken: string): Promise<RotateResult> {
    const record = this.#refreshTokens.get(refreshToken);
    if (!record) {
      return { ok: false, reason: "unknown" };
    }
    if (this.#revokedSessions.has(record.sessionId)) {
      return { ok: false, reason: "revoked" };
    }
    if (record.spent) {
      this.#revokedSessions.add(record.sessionId);
      return { ok: false, reason: "spent" };
    }
    const user = findUser(record.userId);
    if (!user) {
      return { ok: false, reason: "unknown" };
    }
    record.spent = true;
    return { ok: true, tokens: await this.issueTokens(user, record.sessionId) };
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
