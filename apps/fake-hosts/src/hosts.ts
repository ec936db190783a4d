// The hosts as the sandbox, with faults on top. Every host rule (issuing and checking JWTs, refresh
// rotation, API tokens, the legacy login, the answers' shapes) is the sandbox's; this layer only
// makes the hosts hostile in the ways the auth tests need and a real server cannot be asked for
// (faults per endpoint, a skewed clock, odd answers), and counts what the tests read. Where an
// answer's token is rewritten (opaque, without `iat`), the layer maps it back before forwarding, so
// the sandbox still checks every token it is shown.
import { operation } from "@engage-voice/client";
import { createSandboxApps, decodeClaims, USERS } from "@engage-voice/sandbox/app";
import { type FakeClock, operationOf } from "@engage-voice/test-kit";

export const BASE = "https://engage.example.test";
export const LEGACY_BASE = "https://portal.example.test";

/** The document's operations the tests count, by operation id: requests are routed by the document. */
const ENDPOINTS = {
  exchangeAccessToken: "exchange",
  refreshAccessToken: "refresh",
  listAccounts: "accounts",
  legacyLogin: "login",
  createApiToken: "createToken",
  listApiTokens: "listTokens",
  deleteApiToken: "deleteToken",
} as const;

type CountedId = keyof typeof ENDPOINTS;
export type Endpoint = (typeof ENDPOINTS)[CountedId];
const TOKEN_CALLS: readonly Endpoint[] = ["exchange", "refresh", "login"];
const API_CALLS: readonly Endpoint[] = ["accounts", "createToken", "listTokens", "deleteToken"];

export type Fault =
  | { status: number; headers?: Record<string, string>; body?: string }
  | "network"
  /** The sandbox does the work (a refresh rotates), then the connection drops. */
  | "lost"
  /** No answer until the request's signal aborts. */
  | "hang";

export interface ServerOptions {
  clock: FakeClock;
  /** Server clock minus local clock: the sandbox's `now` is the fake clock plus this. */
  skewMs?: number;
  /**
   * Access token lifetime, whole seconds in the JWT. Below the sandbox's least (1 s), the sandbox
   * issues 1 s tokens and the layer rewrites their `exp`: a token already expired when issued.
   */
  lifetimeSeconds?: number;
  /** Send `iat` in the JWT. */
  iat?: boolean;
  /** Send a `Date` header. */
  date?: boolean;
  /** Access tokens that are JWTs (otherwise opaque strings). */
  jwt?: boolean;
  /** Leave the refresh token out of refresh answers (the one the client holds keeps working then). */
  refreshWithoutRefreshToken?: boolean;
  /** Answer a delete with 204 and no body. */
  deleteStatus?: 200 | 204;
  /**
   * How `exp` is made whole seconds from the issue time plus the lifetime: `down` is the sandbox's
   * own (the same as the whole-second `iat` plus the lifetime); `up` gives the sandbox a lifetime
   * 999 ms longer, whose floor is the ceiling of the exact expiry on a whole-millisecond clock.
   */
  expRounding?: "down" | "up";
  /** Time a token call takes: half before the token is issued, half after (the clock advances). */
  tokenLatencyMs?: number;
}

/**
 * Rate limits no test of the token manager reaches unless it means to: those tests queue a `429`
 * as a fault, while the sandbox's own limits are the sandbox's tests'.
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

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The credential a request presents, as sent: what a hostile host echoes in its error body. */
async function credentialOf(endpoint: Endpoint, request: Request): Promise<string> {
  const url = new URL(request.url);
  if (endpoint === "exchange" || endpoint === "refresh") {
    const form = new URLSearchParams(await request.text());
    return form.get(endpoint === "exchange" ? "rcAccessToken" : "refresh_token") ?? "";
  }
  if (endpoint === "login") {
    return `${url.searchParams.get("username")}:${url.searchParams.get("password")}`;
  }
  return request.headers.get("X-Auth-Token") ?? request.headers.get("Authorization") ?? "";
}

export function fakeServer(options: ServerOptions) {
  const { clock, skewMs = 0, lifetimeSeconds = 300, iat = true, date = true, jwt = true } = options;
  const { expRounding = "down", tokenLatencyMs = 0 } = options;
  /** The exchange's parent tokens: the sandbox reads this record on every exchange. */
  const parentTokens: Record<string, number> = Object.fromEntries(
    SEED.parentTokens.map(({ token, userId }) => [token, userId]),
  );
  const apps = createSandboxApps({
    now: () => clock.now() + skewMs,
    tokenLifetimeMs: Math.max(1, lifetimeSeconds) * 1000 + (expRounding === "up" ? 999 : 0),
    exchangeRateLimit: UNREACHED_LIMIT,
    usersRateLimit: UNREACHED_LIMIT,
    parentTokens,
    legacyLogins: [{ ...SEEDED_LOGIN, ...LEGACY_USER }],
  });
  const serverNow = () => apps.control.now();
  const calls = Object.fromEntries(Object.values(ENDPOINTS).map((name) => [name, 0])) as Record<
    Endpoint,
    number
  >;
  const faults: Partial<Record<Endpoint, Fault[]>> = {};
  /** Access token the client was given -> the one the sandbox issued, where the layer rewrote it. */
  const aliases = new Map<string, string>();
  /** Refresh token the client holds -> the sandbox's live one, while refresh answers leave it out. */
  const heldRefresh = new Map<string, string>();
  /** Every refresh token the sandbox issued, for revoking their sessions. */
  const issuedRefresh = new Set<string>();
  /** The permanent API tokens that exist, as the client knows them. */
  const apiTokenSet = new Set<string>();
  /** Every secret the hosts ever handed out or accepted, for leak scans. */
  const secrets = new Set<string>([...Object.keys(parentTokens), LEGACY_USER.password]);
  /** Server-side remaining lifetime (ms) of each access token used on an API call. */
  const remainingAtUse: number[] = [];
  /** Refresh tokens sent, in order. */
  const refreshTokensSent: string[] = [];
  /** API calls answered `401 Jwt is expired`. */
  let expiredAnswers = 0;
  const requests: Request[] = [];

  const unalias = (value: string) => aliases.get(value) ?? value;

  function route(request: Request): { endpoint?: Endpoint; app: typeof apps.main } {
    const { pathname } = new URL(request.url);
    const id = operationOf(request.method, pathname)?.operation.operationId as string | undefined;
    if (id !== undefined && Object.hasOwn(ENDPOINTS, id)) {
      const host = operation(id as CountedId).host;
      return { endpoint: ENDPOINTS[id as CountedId], app: host === "legacy" ? apps.legacy : apps.main };
    }
    // Any method on the accounts path, so tests can send bodies to an endpoint that checks the
    // bearer token.
    const accounts = operationOf("GET", pathname)?.operation.operationId === "listAccounts";
    return accounts ? { endpoint: "accounts", app: apps.main } : { app: apps.main };
  }

  /** The request as the sandbox must see it: the tokens it issued in place of what the client holds. */
  async function forwarded(endpoint: Endpoint | undefined, request: Request, method = request.method) {
    const headers = new Headers(request.headers);
    const bearer = /^Bearer (.+)$/.exec(headers.get("Authorization") ?? "")?.[1];
    if (bearer !== undefined) {
      headers.set("Authorization", `Bearer ${unalias(bearer)}`);
    }
    const apiToken = headers.get("X-Auth-Token");
    if (apiToken !== null) {
      headers.set("X-Auth-Token", unalias(apiToken));
    }
    const url = request.url;
    if (endpoint === "refresh") {
      const form = new URLSearchParams(await request.clone().text());
      const held = form.get("refresh_token") ?? "";
      form.set("refresh_token", heldRefresh.get(held) ?? held);
      headers.delete("Content-Length");
      return new Request(url, { method, headers, body: form.toString() });
    }
    // A clone's body: the request itself is read again for the counters and the echoed credential.
    const body = method === request.method ? request.clone().body : null;
    return new Request(url, { method, headers, body, ...(body ? { duplex: "half" } : {}) } as RequestInit);
  }

  /** A token answer as the client gets it: its access token rewritten as the options say. */
  function tokenAnswer(endpoint: Endpoint, held: string, body: Record<string, unknown>) {
    const issued = body.accessToken as string;
    secrets.add(issued);
    let given = issued;
    if (!jwt) {
      given = `opaque-access-${crypto.randomUUID()}`;
    } else if (!iat || lifetimeSeconds < 1) {
      const [header, , signature] = issued.split(".");
      const { iat: issuedAt, ...claims } = decodeClaims(issued) ?? {};
      const exp = lifetimeSeconds < 1 ? { exp: (issuedAt ?? 0) + lifetimeSeconds } : {};
      given = `${header}.${b64({ ...claims, ...(iat ? { iat: issuedAt } : {}), ...exp })}.${signature}`;
    }
    if (given !== issued) {
      aliases.set(given, issued);
      secrets.add(given);
      body.accessToken = given;
    }
    if (typeof body.refreshToken === "string") {
      issuedRefresh.add(body.refreshToken);
      secrets.add(body.refreshToken);
      if (endpoint === "refresh" && options.refreshWithoutRefreshToken) {
        heldRefresh.set(held, body.refreshToken);
        delete body.refreshToken;
      }
    }
    return body;
  }

  /** The answer's headers as the client gets them: no `Date` unless the options say so. */
  function headersOf(response: Response, extra: Record<string, string> = {}): Headers {
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(extra)) {
      headers.set(name, value);
    }
    if (!date) {
      headers.delete("Date");
    }
    return headers;
  }

  /** The sandbox's answer as the client gets it; `credential` is what the request presents. */
  async function handle(endpoint: Endpoint, app: typeof apps.main, request: Request, credential: string) {
    const url = new URL(request.url);
    const echoBody = endpoint === "accounts" && request.method !== "GET";
    const sent = await forwarded(endpoint, request, echoBody ? "GET" : request.method);
    const response = await app.fetch(sent);
    const type = response.headers.get("Content-Type") ?? "";
    const ok = response.status >= 200 && response.status < 300;
    if (API_CALLS.includes(endpoint)) {
      if (response.status === 401 && type.startsWith("text/plain")) {
        expiredAnswers++;
      }
      const token = /^Bearer (.+)$/.exec(sent.headers.get("Authorization") ?? "")?.[1];
      const exp = token === undefined ? undefined : decodeClaims(token)?.exp;
      if (response.status !== 401 && typeof exp === "number") {
        remainingAtUse.push(exp * 1000 - serverNow());
      }
    }
    if (!ok && type.startsWith("application/json")) {
      // Real error bodies may echo what was sent: these do, to prove no error quotes them.
      const body = (await response.json()) as Record<string, unknown>;
      const uri = `${url.pathname}${url.search} - ${request.method}`;
      const echoing = {
        ...body,
        generalMessage: `Rejected ${credential}`,
        details: credential,
        requestUri: uri,
      };
      return new Response(JSON.stringify(echoing), { status: response.status, headers: headersOf(response) });
    }
    if (!ok) {
      return new Response(response.body, { status: response.status, headers: headersOf(response) });
    }
    if (TOKEN_CALLS.includes(endpoint)) {
      const body = tokenAnswer(endpoint, credential, (await response.json()) as Record<string, unknown>);
      return new Response(JSON.stringify(body), { status: 200, headers: headersOf(response) });
    }
    if (echoBody) {
      const text = { "Content-Type": "text/plain" };
      return new Response(await request.text(), { status: 200, headers: headersOf(response, text) });
    }
    if (endpoint === "createToken") {
      const created = await response.text();
      apiTokenSet.add(created);
      secrets.add(created);
      return new Response(created, { status: 200, headers: headersOf(response) });
    }
    if (endpoint === "deleteToken") {
      apiTokenSet.delete(decodeURIComponent(url.pathname.split("/").pop() ?? ""));
      if (options.deleteStatus === 204) {
        return new Response(null, { status: 204, headers: headersOf(response) });
      }
    }
    return new Response(response.body, { status: response.status, headers: headersOf(response) });
  }

  async function fetch(input: Request, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? input : new Request(input);
    // The call's signal comes beside the request, as the clients give it to fetch.
    const signal = init?.signal ?? request.signal;
    requests.push(request.clone());
    const { endpoint, app } = route(request);
    if (!endpoint) {
      const response = await app.fetch(await forwarded(endpoint, request));
      return new Response(response.body, { status: response.status, headers: headersOf(response) });
    }
    calls[endpoint]++;
    const credential = await credentialOf(endpoint, request.clone());
    if (endpoint === "refresh") {
      refreshTokensSent.push(credential);
    }
    const tokenCall = TOKEN_CALLS.includes(endpoint);
    if (tokenCall && tokenLatencyMs > 0) {
      clock.advance(tokenLatencyMs / 2);
    }
    const fault = faults[endpoint]?.shift();
    if (fault === "network") {
      throw new TypeError(`fetch failed: ${request.url}`, { cause: networkCause() });
    }
    if (fault === "hang") {
      return new Promise((_, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason));
      });
    }
    if (fault === "lost") {
      await handle(endpoint, app, request, credential);
      throw new TypeError(`socket hang up: ${request.url}`, { cause: networkCause() });
    }
    if (fault) {
      const headers = new Headers(fault.headers);
      if (date && !headers.has("Date")) {
        headers.set("Date", new Date(serverNow()).toUTCString());
      }
      return new Response(fault.body ?? "", { status: fault.status, headers });
    }
    const response = await handle(endpoint, app, request, credential);
    if (tokenCall && tokenLatencyMs > 0) {
      clock.advance(tokenLatencyMs / 2);
    }
    return response;
  }

  return {
    fetch,
    calls,
    requests,
    secrets,
    remainingAtUse,
    refreshTokensSent,
    parentToken: PARENT_TOKEN,
    serverNow,
    /** The sandbox under the layer: its seed, control and settings. */
    sandbox: apps,
    /** Queues faults for the next calls to `endpoint`. */
    fail(endpoint: Endpoint, ...list: Fault[]) {
      faults[endpoint] = [...(faults[endpoint] ?? []), ...list];
    },
    /** Every access token issued so far answers `Jwt is expired` from now on. */
    expireAccessTokens() {
      apps.control.expireAccessTokens();
    },
    /** Revokes every session, as if each refresh token had been spent elsewhere. */
    revokeRefreshTokens() {
      for (const token of issuedRefresh) {
        apps.control.revokeSession(token);
      }
      issuedRefresh.clear();
    },
    /** The exchange takes `token` too, for the seeded user of the default parent token. */
    addParentToken(token: string) {
      parentTokens[token] = PARENT.userId;
      secrets.add(token);
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
      const answer = await apps.main.fetch(new Request(exchange, { method: "POST", body: form }));
      const { accessToken } = (await answer.json()) as { accessToken: string };
      const created = await apps.legacy.fetch(
        new Request(`${LEGACY_BASE}${operation("createApiToken").path}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${accessToken}` },
        }),
      );
      const token = await created.text();
      apiTokenSet.add(token);
      secrets.add(token);
      return token;
    },
    apiTokens: apiTokenSet as ReadonlySet<string>,
    totalTokenCalls: () => calls.exchange + calls.refresh,
    expiredAnswers: () => expiredAnswers,
  };
}

function networkCause() {
  return Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
}

export type FakeServer = ReturnType<typeof fakeServer>;
