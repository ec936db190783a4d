// The token manager's hosts in these tests: the sandbox (every rule of the hosts: JWTs, refresh
// rotation, API tokens, the direct login, the answers' shapes), behind the test kit's hostile layer
// (answers the contract forbids, see packages/test-kit/src/hostile.ts), on a fake clock. The test
// kit's exports are re-exported, so a test imports everything it needs from here.
import { type OperationId, operation } from "@engage-voice/client";
import { createSandboxApps, USERS } from "@engage-voice/sandbox/app";
import {
  type FakeClock,
  fakeClock,
  type HostileOptions,
  hostile,
  managersOn,
  operationOf,
} from "@engage-voice/test-kit";
import { createTokenManager, type TokenManagerOptions } from "../src/index.js";

export { ACCOUNTS, createSandboxApps } from "@engage-voice/sandbox/app";
export * from "@engage-voice/test-kit";

export const BASE = "https://engage.example.test";
export const LEGACY_BASE = "https://portal.example.test";

/**
 * Rate limits no test of the token manager reaches unless it means to: those tests queue a `429`
 * with the Retry-After they need, while the sandbox's own limits are the sandbox's tests'.
 */
const UNREACHED_LIMIT = { limit: 100_000, windowMs: 60_000 };

/** What a default sandbox seeds: its parent tokens and its direct login, read rather than restated. */
const SEED = createSandboxApps().seed;
const SEEDED_LOGIN = SEED.legacyLogins[0] as (typeof SEED.legacyLogins)[number];
const PARENT = SEED.parentTokens[0] as (typeof SEED.parentTokens)[number];

/** The parent token the exchange takes by default: the sandbox's first seeded one. */
export const PARENT_TOKEN = PARENT.token;
/** The seeded user that token stands for: whose session, accounts and API tokens the tests see. */
export const PARENT_USER = USERS.find((user) => user.userId === PARENT.userId) as (typeof USERS)[number];

/** The sandbox's seeded direct login, with a password that needs every kind of URL encoding. */
export const LEGACY_USER = {
  username: SEEDED_LOGIN.username,
  password: "correct horse+battery=staple&1 %20?#",
  platformId: SEEDED_LOGIN.platformId,
};

export interface ServerOptions extends Omit<HostileOptions, "now"> {
  /** Server clock minus local clock: the sandbox's `now` is the fake clock plus this. */
  skewMs?: number;
  /** Access token lifetime, whole seconds (the sandbox's least is 1: below, the layer rewrites `exp`). */
  lifetimeSeconds?: number;
  /**
   * How `exp` is made whole seconds from the issue time plus the lifetime: `down` is the sandbox's
   * own (the same as the whole-second `iat` plus the lifetime); `up` gives the sandbox a lifetime
   * 999 ms longer, whose floor is the ceiling of the exact expiry on a whole-millisecond clock.
   */
  expRounding?: "down" | "up";
}

/** The sandbox on `clock` (plus the skew), behind the hostile layer, and the state tests set on it. */
export function fakeServer({
  skewMs = 0,
  lifetimeSeconds = 300,
  expRounding = "down",
  ...rest
}: ServerOptions) {
  /** The exchange's parent tokens: the sandbox reads this record on every exchange. */
  const parentTokens: Record<string, number> = Object.fromEntries(
    SEED.parentTokens.map(({ token, userId }) => [token, userId]),
  );
  const sandbox = createSandboxApps({
    now: () => rest.clock.now() + skewMs,
    tokenLifetimeMs: Math.max(1, lifetimeSeconds) * 1000 + (expRounding === "up" ? 999 : 0),
    exchangeRateLimit: UNREACHED_LIMIT,
    usersRateLimit: UNREACHED_LIMIT,
    parentTokens,
    legacyLogins: [{ ...SEEDED_LOGIN, ...LEGACY_USER }],
  });
  // Each request goes to its operation's host, whatever the origin (a call may use the default one).
  const hostOf = (request: Request) => {
    const id = operationOf(request.method, new URL(request.url).pathname)?.operation.operationId;
    return id !== undefined && operation(id as OperationId).host === "legacy" ? sandbox.legacy : sandbox.main;
  };
  const hosts = hostile((request) => hostOf(request).fetch(request), {
    ...rest,
    lifetimeSeconds,
    now: () => sandbox.control.now(),
  });
  for (const secret of [...Object.keys(parentTokens), LEGACY_USER.password]) {
    hosts.secrets.add(secret);
  }
  return {
    ...hosts,
    parentToken: PARENT_TOKEN,
    serverNow: () => sandbox.control.now(),
    sandbox,
    /** Every access token issued so far answers `Jwt is expired` from now on. */
    expireAccessTokens() {
      sandbox.control.expireAccessTokens();
    },
    /** Revokes every session, as if each refresh token had been spent elsewhere. */
    revokeRefreshTokens() {
      for (const token of hosts.issuedRefreshTokens) {
        sandbox.control.revokeSession(token);
      }
      hosts.issuedRefreshTokens.clear();
    },
    /** The exchange takes `token` too, for the seeded user of the default parent token. */
    addParentToken(token: string) {
      parentTokens[token] = PARENT.userId;
      hosts.secrets.add(token);
    },
    revokeParentTokens() {
      for (const token of Object.keys(parentTokens)) {
        delete parentTokens[token];
      }
    },
    /** A permanent API token of the default parent token's user, made by the sandbox. */
    async addApiToken(): Promise<string> {
      const form = new URLSearchParams({ rcAccessToken: PARENT_TOKEN, rcTokenType: "Bearer" });
      const exchange = `${BASE}${operation("exchangeAccessToken").path}`;
      const answer = await sandbox.main.fetch(new Request(exchange, { method: "POST", body: form }));
      const { accessToken } = (await answer.json()) as { accessToken: string };
      const created = await sandbox.legacy.fetch(
        new Request(`${LEGACY_BASE}${operation("createApiToken").path}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${accessToken}` },
        }),
      );
      const token = await created.text();
      hosts.secrets.add(token);
      return token;
    },
  };
}

export type FakeServer = ReturnType<typeof fakeServer>;

export interface HostsOptions extends Omit<ServerOptions, "clock"> {
  /** The clock of the hosts and the managers; default a fresh `fakeClock()`. */
  clock?: FakeClock;
}

/** Fake hosts on a fake clock whose `managerOn(store, options)` makes this package's token managers. */
export function hostsFor({ clock = fakeClock(), ...serverOptions }: HostsOptions = {}) {
  const server = fakeServer({ clock, ...serverOptions });
  const managers = managersOn(createTokenManager, {
    baseUrl: BASE,
    rcAccessToken: server.parentToken,
    fetch: server.fetch,
    clock,
  });
  return { clock, server, ...managers };
}

/** One manager on fresh fake hosts; `sleep` advances the clock at once. */
export function setup(overrides: Partial<TokenManagerOptions> = {}, hostsOptions: HostsOptions = {}) {
  const hosts = hostsFor(hostsOptions);
  const { auth, logs, logger } = hosts.managerOn(overrides.store, overrides);
  const { clock, server, sleeps } = hosts;
  /** The same clock, waits and logger for a client the test makes itself. */
  const policy = { ...hosts.policy, logger };
  return { clock, server, auth, logs, sleeps, policy, managerOn: hosts.managerOn };
}
