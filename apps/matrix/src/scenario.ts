// The one scenario every runtime runs, on the modules that runtime loaded (by `import` or by
// `require`, from the published packages). It only uses web APIs (fetch, URL), so the same compiled file
// runs in Node, Bun, Deno, a page and a worker. It throws on the first surprise and otherwise returns
// what it saw; the matrix compares that with what the sandbox seeded. Tokens never appear in the
// result: calls are recorded by method and path, with an API token in a path replaced.
//
// No step waits on the wall clock: the expiry is the sandbox's clock moved past the token's `exp`
// (its time control), and the token managers read a clock moved by the same amount. A slow or
// stalled machine changes how long the scenario takes, never which calls it makes.

import type * as Auth from "@engage-voice/auth";
import type * as AuthNode from "@engage-voice/auth/node";
import type * as Client from "@engage-voice/client";

export interface Modules {
  client: typeof Client;
  auth: typeof Auth;
  /** Only where the runtime has a file system: the file token store. */
  authNode?: typeof AuthNode;
}

export interface ScenarioConfig {
  mainUrl: string;
  legacyUrl: string;
  rcAccessToken: string;
  legacyLogin: { username: string; password: string; platformId: string };
  /** With `authNode`: where the file store keeps the token set. */
  storePath?: string;
  /** `POST` here moves the sandbox's clock (its time control, enabled for the matrix). */
  controlUrl: string;
}

/** How requests reach the sandbox: `fetch` over loopback, or the sandbox's apps as fetch handlers. */
export type Transport = (request: Request) => Promise<Response>;

export interface ScenarioResult {
  /** `GET /accounts` through the token manager's middleware. */
  accountIds: string[];
  /** `session()` of the manager: the accounts of the exchange's agent details. */
  sessionAccountIds: string[];
  /** The token sets the manager produced: the exchange and the refresh after the expiry. */
  tokenSets: number;
  /** How long the exchange's access token lives (`exp - iat`), as the sandbox was configured. */
  tokenLifetimeSeconds: number;
  /** Whether the refresh replaced both tokens. */
  rotated: { accessToken: boolean; refreshToken: boolean };
  /** `GET /users?flatten&activeOnly` after the expiry, which the manager got through by refreshing first. */
  users: number;
  /** The first access token sent after its expiry, without the manager. */
  expiredAnswer: { status: number; error: unknown };
  /** With a file store: a second manager on the same file made a call without a new exchange. */
  resumedFromFile: boolean | null;
  /** A parent token the sandbox does not know, as the error the manager throws. */
  rejected: { name: string; code: string; status: number | undefined; isAuthError: boolean };
  /** A permanent API token: created, listed, deleted, no longer listed. */
  apiToken: { shaped: boolean; listedAfterCreate: boolean; listedAfterDelete: boolean };
  /** Every request, in order, as `host METHOD path` (query strings left out). */
  calls: string[];
}

const PATHS = {
  accounts: "/voice/api/v1/admin/accounts",
  users: "/voice/api/v1/admin/users",
} as const;

function check(condition: unknown, message: string): asserts condition {
  if (!condition) {
    throw new Error(`scenario: ${message}`);
  }
}

/** The time claims of a JWT, in seconds (base64url JSON, decoded with what every runtime has). */
function timeClaims(jwt: string): { iat: number; exp: number } {
  const payload = (jwt.split(".")[1] ?? "").replace(/-/g, "+").replace(/_/g, "/");
  const { iat, exp } = JSON.parse(atob(payload.padEnd(Math.ceil(payload.length / 4) * 4, "="))) as {
    iat?: unknown;
    exp?: unknown;
  };
  check(typeof iat === "number" && typeof exp === "number", "the access token has no iat or exp claim");
  return { iat, exp };
}

/** The runtime this runs in, for the matrix's line: the name and version it reports. */
export function describeRuntime(): string {
  const g = globalThis as {
    Deno?: { version: { deno: string } };
    Bun?: { version: string };
    process?: { versions?: { node?: string } };
    navigator?: { userAgent?: string };
  };
  if (g.Deno) {
    return `deno ${g.Deno.version.deno}`;
  }
  if (g.Bun) {
    return `bun ${g.Bun.version}`;
  }
  if (g.process?.versions?.node) {
    return `node ${g.process.versions.node}`;
  }
  const chrome = /(?:HeadlessChrome|Chrome|Chromium)\/([\d.]+)/.exec(g.navigator?.userAgent ?? "");
  return chrome ? `chromium ${chrome[1]}` : (g.navigator?.userAgent ?? "unknown");
}

/** A call as the scenario records it, for an operation of the generated table: `host METHOD path`. */
function callOf(client: typeof Client, operationId: Client.OperationId): string {
  const { host, method, path } = client.operation(operationId);
  return `${host} ${method.toUpperCase()} ${path}`;
}

/**
 * The sandbox's clock as the token managers read it: the local clock plus how far the sandbox's time
 * control has moved the sandbox's. `advanceTo` moves both, so the managers see the expiry the
 * sandbox judges by, and no wall time passes.
 */
function sharedClock(config: ScenarioConfig, transport: Transport) {
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;
  return {
    now,
    async advanceTo(targetMs: number): Promise<void> {
      const answer = await transport(
        new Request(config.controlUrl, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ action: "advance", ms: Math.max(0, Math.ceil(targetMs - now())) }),
        }),
      );
      const body = (await answer.json().catch(() => undefined)) as { now?: unknown } | undefined;
      check(answer.ok && typeof body?.now === "number", `the time control answered ${answer.status}`);
      offsetMs = body.now - Date.now();
    },
  };
}

export async function runScenario(
  modules: Modules,
  config: ScenarioConfig,
  transport: Transport = (request) => fetch(request),
): Promise<ScenarioResult> {
  const { client, auth, authNode } = modules;
  const hosts = new Map([
    [new URL(config.mainUrl).origin, "main"],
    [new URL(config.legacyUrl).origin, "legacy"],
  ]);
  const calls: string[] = [];
  const recordingFetch = (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = client.pathTemplateOf(url.pathname) ?? url.pathname;
    calls.push(`${hosts.get(url.origin) ?? url.origin} ${request.method} ${path}`);
    return transport(request);
  };
  const clock = sharedClock(config, transport);
  const warnings: string[] = [];
  const logger = {
    warn: (message: string) => warnings.push(message),
    error: (message: string) => warnings.push(message),
  };

  // The exchange and a call, through the manager's middleware on a client of the same host.
  const store = authNode && config.storePath ? authNode.fileStore(config.storePath) : auth.memoryStore();
  const tokenSets: Auth.TokenSet[] = [];
  const options = {
    baseUrl: config.mainUrl,
    rcAccessToken: config.rcAccessToken,
    fetch: recordingFetch,
    store,
    tenant: "matrix",
    logger,
    clock,
  };
  const manager = auth.createTokenManager({ ...options, onTokens: (tokens) => void tokenSets.push(tokens) });
  const main = client.createClient({ baseUrl: config.mainUrl, fetch: recordingFetch });
  main.use(manager.middleware);

  const accounts = await main.GET(PATHS.accounts);
  check(accounts.data, `GET accounts answered ${accounts.response.status}`);
  const accountIds = accounts.data.map((account) => String(account.accountId));
  const session = manager.session();
  check(session, "the manager has no session after its first call");
  const [first] = tokenSets;
  check(first, "the manager reported no token set after the exchange");

  // Past the token's own `exp` claim, which the sandbox judges by (the manager's expiry is earlier):
  // the next call needs a refresh first, and the old token is refused.
  const firstClaims = timeClaims(first.accessToken);
  await clock.advanceTo(firstClaims.exp * 1000 + 1_000);
  const users = await main.GET(PATHS.users, { params: { query: { flatten: true, activeOnly: true } } });
  check(users.data, `GET users after the expiry answered ${users.response.status}`);
  const second = tokenSets[1];
  check(second, "no new token set after the expiry");

  const bare = client.createClient({ baseUrl: config.mainUrl, fetch: recordingFetch });
  const expired = await bare.GET(PATHS.accounts, {
    headers: { Authorization: `Bearer ${first.accessToken}` },
  });
  check(!expired.data, "the expired access token was still accepted");

  // A second manager on the same file resumes the session: no exchange, the stored token is used.
  let resumedFromFile: boolean | null = null;
  if (authNode && config.storePath) {
    const exchange = callOf(client, "exchangeAccessToken");
    const exchangesBefore = calls.filter((c) => c === exchange).length;
    const resumed = auth.createTokenManager({ ...options, store: authNode.fileStore(config.storePath) });
    const again = client.createClient({ baseUrl: config.mainUrl, fetch: recordingFetch });
    again.use(resumed.middleware);
    const answer = await again.GET(PATHS.accounts);
    const exchangesAfter = calls.filter((c) => c === exchange).length;
    resumedFromFile = answer.data !== undefined && exchangesAfter === exchangesBefore;
  }

  // A parent token the sandbox does not know: a typed error, from the same module instance.
  const refused = auth.createTokenManager({
    ...options,
    rcAccessToken: "not-a-seeded-token",
    store: auth.memoryStore(),
  });
  let rejected: ScenarioResult["rejected"] | undefined;
  try {
    await refused.getAccessToken();
  } catch (error) {
    const e = error as Auth.EngageVoiceAuthError;
    rejected = {
      name: e.name,
      code: e.code,
      status: e.status,
      isAuthError: error instanceof auth.ExchangeRejectedError && error instanceof auth.EngageVoiceAuthError,
    };
  }
  check(rejected, "an unknown parent token was accepted");

  // The deprecated host: a direct login, then a permanent API token's whole life.
  const login = await auth.legacyLogin({
    ...config.legacyLogin,
    baseUrl: config.legacyUrl,
    fetch: recordingFetch,
    logger,
  });
  const apiTokens = auth.apiTokens({
    baseUrl: config.legacyUrl,
    auth: { accessToken: login.accessToken },
    fetch: recordingFetch,
  });
  const created = await apiTokens.create();
  const listedAfterCreate = (await apiTokens.list()).includes(created);
  await apiTokens.delete(created);
  const listedAfterDelete = (await apiTokens.list()).includes(created);

  return {
    accountIds,
    sessionAccountIds: [...session.accountIds],
    tokenSets: tokenSets.length,
    tokenLifetimeSeconds: firstClaims.exp - firstClaims.iat,
    rotated: {
      accessToken: second.accessToken !== first.accessToken,
      refreshToken: second.refreshToken !== undefined && second.refreshToken !== first.refreshToken,
    },
    users: users.data.length,
    expiredAnswer: { status: expired.response.status, error: expired.error },
    resumedFromFile,
    rejected,
    apiToken: { shaped: /^[^:\s]+:[0-9a-f-]{36}$/i.test(created), listedAfterCreate, listedAfterDelete },
    calls,
  };
}
