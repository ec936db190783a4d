// A stateful fake of both hosts as a fetch function (no sockets): it issues JWTs from a fake clock,
// counts calls per endpoint, enforces refresh-token rotation and can inject faults. The auth tests
// run the token manager against it, the Redis store's tests their managers.
import type { FakeClock } from "./clock.js";
import { operationOf } from "./document.js";

export const BASE = "https://engage.example.test";
export const LEGACY_BASE = "https://portal.example.test";

export type Endpoint =
  | "exchange"
  | "refresh"
  | "accounts"
  | "login"
  | "createToken"
  | "listTokens"
  | "deleteToken";

/** The document's operations this fake serves, by operation id: requests are routed by the document. */
const ENDPOINTS: Readonly<Record<string, Endpoint>> = {
  exchangeAccessToken: "exchange",
  refreshAccessToken: "refresh",
  listAccounts: "accounts",
  legacyLogin: "login",
  createApiToken: "createToken",
  listApiTokens: "listTokens",
  deleteApiToken: "deleteToken",
};

export type Fault =
  | { status: number; headers?: Record<string, string>; body?: string }
  | "network"
  /** The server does the work (a refresh rotates), then the connection drops. */
  | "lost"
  /** No answer until the request's signal aborts. */
  | "hang";

export interface ServerOptions {
  clock: FakeClock;
  /** Server clock minus local clock. */
  skewMs?: number;
  /** Access token lifetime, whole seconds in the JWT. */
  lifetimeSeconds?: number;
  /** Send `iat` in the JWT. */
  iat?: boolean;
  /** Send a `Date` header. */
  date?: boolean;
  /** Access tokens that are JWTs (otherwise opaque strings). */
  jwt?: boolean;
  /** Leave the refresh token out of refresh answers (the old one stays valid then). */
  refreshWithoutRefreshToken?: boolean;
  /** Answer a delete with 204 and no body. */
  deleteStatus?: 200 | 204;
  /** How `exp` is made whole seconds from the issue time plus the lifetime. Default: from the whole-second `iat`. */
  expRounding?: "iat" | "up" | "down";
  /** Time a token call takes: half before the token is issued, half after (the clock advances). */
  tokenLatencyMs?: number;
}

export const LEGACY_USER = {
  username: "lee.legacy@example.com",
  password: "correct horse+battery=staple&1 %20?#",
  platformId: "example-platform",
};

export function fakeServer(options: ServerOptions) {
  const { clock, skewMs = 0, lifetimeSeconds = 300, iat = true, date = true, jwt = true } = options;
  const { expRounding = "iat", tokenLatencyMs = 0 } = options;
  const serverNow = () => clock.now() + skewMs;
  const calls: Record<Endpoint, number> = {
    exchange: 0,
    refresh: 0,
    accounts: 0,
    login: 0,
    createToken: 0,
    listTokens: 0,
    deleteToken: 0,
  };
  const faults: Partial<Record<Endpoint, Fault[]>> = {};
  const parentTokens = new Set(["rc-parent-token-1"]);
  const access = new Map<string, number>(); // token -> exp (server ms)
  const revoked = new Set<string>();
  const refresh = new Set<string>();
  const apiTokenSet = new Set<string>();
  /** Every secret the server ever handed out or accepted, for leak scans. */
  const secrets = new Set<string>([...parentTokens, LEGACY_USER.password]);
  /** Server-side remaining lifetime (ms) of each access token used on an API call. */
  const remainingAtUse: number[] = [];
  /** Refresh tokens sent, in order. */
  const refreshTokensSent: string[] = [];
  /** API calls answered `401 Jwt is expired`. */
  let expiredAnswers = 0;
  const requests: Request[] = [];
  let serial = 0;

  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

  function issue(withRefresh: boolean) {
    serial++;
    const issuedAt = Math.floor(serverNow() / 1000);
    const exact = serverNow() / 1000 + lifetimeSeconds;
    const exp =
      expRounding === "up"
        ? Math.ceil(exact)
        : expRounding === "down"
          ? Math.floor(exact)
          : issuedAt + lifetimeSeconds;
    const payload = { sub: "agent-1", jti: `j${serial}`, exp, ...(iat ? { iat: issuedAt } : {}) };
    const accessToken = jwt
      ? `${b64({ alg: "HS256", typ: "JWT" })}.${b64(payload)}.sig${serial}-secret`
      : `opaque-access-${serial}-secret`;
    access.set(accessToken, exp * 1000);
    secrets.add(accessToken);
    const body: Record<string, unknown> = {
      accessToken,
      tokenType: "Bearer",
      agentDetails: [{ agentId: 11, firstName: "Ada", accountId: "99990001", accountName: "Sub" }],
      adminId: 7,
      adminUrl: "/voice/admin/",
      agentUrl: "/voice/agent/",
      ssoLogin: false,
      mainAccountId: "99990000",
    };
    if (withRefresh) {
      const refreshToken = `refresh-${serial}-${crypto.randomUUID()}`;
      refresh.add(refreshToken);
      secrets.add(refreshToken);
      body.refreshToken = refreshToken;
    }
    return body;
  }

  const headers = (extra: Record<string, string> = {}) => ({
    ...(date ? { Date: new Date(serverNow()).toUTCString() } : {}),
    ...extra,
  });
  const json = (status: number, body: unknown, extra?: Record<string, string>) =>
    new Response(JSON.stringify(body), {
      status,
      headers: headers({ "Content-Type": "application/json", ...extra }),
    });
  const text = (status: number, body: string) =>
    new Response(body, { status, headers: headers({ "Content-Type": "text/plain" }) });
  // Real error bodies may echo what was sent: these do, to prove no error quotes them.
  const apiError = (status: number, echoed: string, uri: string) =>
    json(status, {
      errorCode: "access.denied.exception",
      generalMessage: `Rejected ${echoed}`,
      details: echoed,
      requestUri: uri,
      timestamp: serverNow(),
    });

  function bearer(request: Request): "valid" | "expired" | "unknown" | "none" {
    const value = request.headers.get("Authorization");
    if (!value) {
      return "none";
    }
    const token = value.replace(/^Bearer /, "");
    const exp = access.get(token);
    if (exp === undefined) {
      return "unknown";
    }
    if (revoked.has(token) || exp <= serverNow()) {
      return "expired";
    }
    remainingAtUse.push(exp - serverNow());
    return "valid";
  }

  function route(request: Request): Endpoint | undefined {
    const { pathname } = new URL(request.url);
    const id = operationOf(request.method, pathname)?.operation.operationId;
    if (typeof id === "string" && Object.hasOwn(ENDPOINTS, id)) {
      return ENDPOINTS[id];
    }
    // Any method on the accounts path, so tests can send bodies to an endpoint that checks the
    // bearer token.
    return operationOf("GET", pathname)?.operation.operationId === "listAccounts" ? "accounts" : undefined;
  }

  async function handle(endpoint: Endpoint, request: Request): Promise<Response> {
    const url = new URL(request.url);
    const uri = `${url.pathname} - ${request.method}`;
    switch (endpoint) {
      case "exchange": {
        const form = new URLSearchParams(await request.text());
        const token = form.get("rcAccessToken") ?? "";
        if (
          request.headers.get("Content-Type") !== "application/x-www-form-urlencoded" ||
          form.get("rcTokenType") !== "Bearer"
        ) {
          return apiError(400, token, uri);
        }
        if (!parentTokens.has(token)) {
          return apiError(401, token, uri);
        }
        return json(200, issue(url.searchParams.get("includeRefresh") === "true"));
      }
      case "refresh": {
        const form = new URLSearchParams(await request.text());
        const token = form.get("refresh_token") ?? "";
        if (form.get("rcTokenType") !== "Bearer") {
          return apiError(400, token, uri);
        }
        if (!refresh.has(token)) {
          return apiError(401, token, uri);
        }
        if (options.refreshWithoutRefreshToken) {
          return json(200, issue(false));
        }
        refresh.delete(token);
        return json(200, issue(true));
      }
      case "accounts": {
        const state = bearer(request);
        if (state === "expired") {
          expiredAnswers++;
          return text(401, "Jwt is expired");
        }
        if (state !== "valid") {
          return apiError(401, request.headers.get("Authorization") ?? "", uri);
        }
        if (request.method !== "GET") {
          return text(200, await request.text());
        }
        return json(200, [{ accountId: "99990001", accountName: "Sub" }]);
      }
      case "login": {
        const q = url.searchParams;
        if (
          q.get("username") !== LEGACY_USER.username ||
          q.get("password") !== LEGACY_USER.password ||
          q.get("platformId") !== LEGACY_USER.platformId
        ) {
          return apiError(401, `${q.get("username")}:${q.get("password")}`, `${url.pathname}${url.search}`);
        }
        return json(200, issue(true));
      }
      default: {
        const apiToken = request.headers.get("X-Auth-Token");
        const authorized = apiToken ? apiTokenSet.has(apiToken) : bearer(request) === "valid";
        if (!authorized) {
          return apiError(401, apiToken ?? request.headers.get("Authorization") ?? "", uri);
        }
        if (endpoint === "createToken") {
          const created = `aws80:${crypto.randomUUID()}`;
          apiTokenSet.add(created);
          secrets.add(created);
          return text(200, created);
        }
        if (endpoint === "listTokens") {
          return json(200, [...apiTokenSet]);
        }
        const target = decodeURIComponent(url.pathname.split("/").pop() ?? "");
        if (!apiTokenSet.delete(target)) {
          return apiError(404, target, `${url.pathname} - DELETE`);
        }
        return options.deleteStatus === 204
          ? new Response(null, { status: 204, headers: headers() })
          : text(200, "true");
      }
    }
  }

  async function fetch(input: Request): Promise<Response> {
    const request = input instanceof Request ? input : new Request(input);
    requests.push(request.clone());
    const endpoint = route(request);
    if (!endpoint) {
      return text(404, "no route");
    }
    calls[endpoint]++;
    if (endpoint === "refresh") {
      refreshTokensSent.push(new URLSearchParams(await request.clone().text()).get("refresh_token") ?? "");
    }
    const tokenCall = endpoint === "exchange" || endpoint === "refresh" || endpoint === "login";
    if (tokenCall && tokenLatencyMs > 0) {
      clock.advance(tokenLatencyMs / 2);
    }
    const fault = faults[endpoint]?.shift();
    if (fault === "network") {
      throw new TypeError(`fetch failed: ${request.url}`, { cause: networkCause() });
    }
    if (fault === "hang") {
      return new Promise((_, reject) => {
        request.signal.addEventListener("abort", () => reject(request.signal.reason));
      });
    }
    if (fault === "lost") {
      await handle(endpoint, request);
      throw new TypeError(`socket hang up: ${request.url}`, { cause: networkCause() });
    }
    if (fault) {
      return new Response(fault.body ?? "", { status: fault.status, headers: headers(fault.headers) });
    }
    const response = await handle(endpoint, request);
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
    parentToken: "rc-parent-token-1",
    serverNow,
    /** Queues faults for the next calls to `endpoint`. */
    fail(endpoint: Endpoint, ...list: Fault[]) {
      faults[endpoint] = [...(faults[endpoint] ?? []), ...list];
    },
    /** Every access token issued so far answers `Jwt is expired` from now on. */
    expireAccessTokens() {
      for (const token of access.keys()) {
        revoked.add(token);
      }
    },
    /** Forgets every refresh token, as if they had all been spent elsewhere. */
    revokeRefreshTokens() {
      refresh.clear();
    },
    addParentToken(token: string) {
      parentTokens.add(token);
      secrets.add(token);
    },
    revokeParentTokens() {
      parentTokens.clear();
    },
    addApiToken(token: string) {
      apiTokenSet.add(token);
      secrets.add(token);
    },
    apiTokens: apiTokenSet,
    totalTokenCalls: () => calls.exchange + calls.refresh,
    expiredAnswers: () => expiredAnswers,
  };
}

function networkCause() {
  return Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
}

export type FakeServer = ReturnType<typeof fakeServer>;
