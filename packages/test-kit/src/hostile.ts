// Hostile hosts: any fetch handler of the two hosts (the tests pass the sandbox's) behind a layer
// that answers what the contract forbids and a well-behaved host, the sandbox included, never sends:
// answers in place of the host (any status, headers and body; a dropped connection; a hang; an
// answer lost after the work was done), access tokens rewritten (opaque, without `iat`, already
// expired), refresh answers without a refresh token, error bodies that echo the credential sent,
// no `Date` header, time spent on token calls. The faults the contract documents (5xx, 429 with
// Retry-After, a delay, a dropped refresh) are the sandbox's own queue (`sandbox.faults`).
//
// The layer takes the handler rather than importing the sandbox: the kit cannot depend on it (the
// sandbox depends on the client, whose tests depend on the kit: a cycle turbo refuses). Rewritten
// tokens are mapped back before forwarding, so the handler still checks every token it is shown.
import type { FakeClock } from "./clock.js";
import { operationOf } from "./document.js";

/** A fetch handler of both hosts: the sandbox's apps behind one function, or anything else. */
export type Handler = (request: Request) => Response | Promise<Response>;

/** The document's operations the layer counts and can fail, by operation id. */
const ENDPOINTS = {
  exchangeAccessToken: "exchange",
  refreshAccessToken: "refresh",
  listAccounts: "accounts",
  legacyLogin: "login",
  createApiToken: "createToken",
  listApiTokens: "listTokens",
  deleteApiToken: "deleteToken",
} as const;

export type Endpoint = (typeof ENDPOINTS)[keyof typeof ENDPOINTS];
const TOKEN_CALLS: readonly Endpoint[] = ["exchange", "refresh", "login"];
const API_CALLS: readonly Endpoint[] = ["accounts", "createToken", "listTokens", "deleteToken"];

/** An answer in place of the host's. */
export type Fault =
  | { status: number; headers?: Record<string, string>; body?: string }
  | "network"
  /** The host does the work (a refresh rotates), then the connection drops. */
  | "lost"
  /** No answer until the request's signal aborts. */
  | "hang";

export interface HostileOptions {
  /** The tests' clock: token calls move it by `tokenLatencyMs`. */
  clock: FakeClock;
  /** The host's clock (the `Date` of a fault's answer, the remaining lifetime of tokens used). */
  now: () => number;
  /**
   * Below 1, the `exp` of every access token is its `iat` plus this (whole seconds): a token already
   * expired when issued, which no host that follows the contract sends.
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
  /** Time a token call takes: half before the token is issued, half after (the clock advances). */
  tokenLatencyMs?: number;
}

/** The claims of a JWT, or undefined for anything else (the sandbox's decodeClaims, which the kit cannot import). */
function jwtClaims(token: string): Record<string, unknown> | undefined {
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());
    return typeof claims === "object" && claims !== null ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

function endpointOf(request: Request): { endpoint?: Endpoint; echoBody: boolean } {
  const { pathname } = new URL(request.url);
  const id = operationOf(request.method, pathname)?.operation.operationId as string | undefined;
  if (id !== undefined && Object.hasOwn(ENDPOINTS, id)) {
    return { endpoint: ENDPOINTS[id as keyof typeof ENDPOINTS], echoBody: false };
  }
  // Any other method on the accounts path echoes its body, so tests can send bodies to an endpoint
  // that checks the bearer token (replays).
  const accounts = operationOf("GET", pathname)?.operation.operationId === "listAccounts";
  return accounts ? { endpoint: "accounts", echoBody: true } : { echoBody: false };
}

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

function networkCause() {
  return Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
}

export function hostile(handler: Handler, options: HostileOptions) {
  const { clock, now, lifetimeSeconds, iat = true, date = true, jwt = true, tokenLatencyMs = 0 } = options;
  const calls = Object.fromEntries(Object.values(ENDPOINTS).map((name) => [name, 0])) as Record<
    Endpoint,
    number
  >;
  const faults: Partial<Record<Endpoint, Fault[]>> = {};
  /** Access token the client was given -> the one the host issued, where the layer rewrote it. */
  const aliases = new Map<string, string>();
  /** Refresh token the client holds -> the host's live one, while refresh answers leave it out. */
  const heldRefresh = new Map<string, string>();
  /** Every refresh token the host issued. */
  const issuedRefreshTokens = new Set<string>();
  /** Every secret the hosts ever handed out, for leak scans; the caller adds what it hands in. */
  const secrets = new Set<string>();
  /** Host-side remaining lifetime (ms) of each access token used on an API call. */
  const remainingAtUse: number[] = [];
  /** Refresh tokens sent, in order. */
  const refreshTokensSent: string[] = [];
  /** API calls answered `401 Jwt is expired`. */
  let expiredAnswers = 0;
  const requests: Request[] = [];

  const unalias = (value: string) => aliases.get(value) ?? value;

  /** The request as the host must see it: the tokens it issued in place of what the client holds. */
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
    if (endpoint === "refresh") {
      const form = new URLSearchParams(await request.clone().text());
      const held = form.get("refresh_token") ?? "";
      form.set("refresh_token", heldRefresh.get(held) ?? held);
      headers.delete("Content-Length");
      return new Request(request.url, { method, headers, body: form.toString() });
    }
    // A clone's body: the request itself is read again for the counters and the echoed credential.
    const body = method === request.method ? request.clone().body : null;
    return new Request(request.url, {
      method,
      headers,
      body,
      ...(body ? { duplex: "half" } : {}),
    } as RequestInit);
  }

  /** A token answer as the client gets it: its access token rewritten as the options say. */
  function tokenAnswer(endpoint: Endpoint, held: string, body: Record<string, unknown>) {
    const issued = body.accessToken as string;
    secrets.add(issued);
    let given = issued;
    const expired = lifetimeSeconds !== undefined && lifetimeSeconds < 1;
    if (!jwt) {
      given = `opaque-access-${crypto.randomUUID()}`;
    } else if (!iat || expired) {
      const [header, , signature] = issued.split(".");
      const { iat: issuedAt, ...claims } = jwtClaims(issued) ?? {};
      const exp = expired ? { exp: Number(issuedAt ?? 0) + lifetimeSeconds } : {};
      given = `${header}.${b64({ ...claims, ...(iat ? { iat: issuedAt } : {}), ...exp })}.${signature}`;
    }
    if (given !== issued) {
      aliases.set(given, issued);
      secrets.add(given);
      body.accessToken = given;
    }
    if (typeof body.refreshToken === "string") {
      issuedRefreshTokens.add(body.refreshToken);
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

  /** Counts what an API call's answer says about the token it presented. */
  function recordApiCall(sent: Request, response: Response) {
    if (response.status === 401 && (response.headers.get("Content-Type") ?? "").startsWith("text/plain")) {
      expiredAnswers++;
    }
    const token = /^Bearer (.+)$/.exec(sent.headers.get("Authorization") ?? "")?.[1];
    const exp = token === undefined ? undefined : jwtClaims(token)?.exp;
    if (response.status !== 401 && typeof exp === "number") {
      remainingAtUse.push(exp * 1000 - now());
    }
  }

  /** The host's answer as the client gets it; `credential` is what the request presents. */
  async function handle(endpoint: Endpoint, echoBody: boolean, request: Request, credential: string) {
    const sent = await forwarded(endpoint, request, echoBody ? "GET" : request.method);
    const response = await handler(sent);
    const type = response.headers.get("Content-Type") ?? "";
    if (API_CALLS.includes(endpoint)) {
      recordApiCall(sent, response);
    }
    if (!response.ok && type.startsWith("application/json")) {
      // Real error bodies may echo what was sent: these do, to prove no error quotes them.
      const url = new URL(request.url);
      const echoing = {
        ...((await response.json()) as Record<string, unknown>),
        generalMessage: `Rejected ${credential}`,
        details: credential,
        requestUri: `${url.pathname}${url.search} - ${request.method}`,
      };
      return new Response(JSON.stringify(echoing), { status: response.status, headers: headersOf(response) });
    }
    if (response.ok && TOKEN_CALLS.includes(endpoint)) {
      const body = tokenAnswer(endpoint, credential, (await response.json()) as Record<string, unknown>);
      return new Response(JSON.stringify(body), { status: 200, headers: headersOf(response) });
    }
    if (response.ok && echoBody) {
      const text = { "Content-Type": "text/plain" };
      return new Response(await request.text(), { status: 200, headers: headersOf(response, text) });
    }
    if (response.ok && endpoint === "createToken") {
      const created = await response.text();
      secrets.add(created);
      return new Response(created, { status: 200, headers: headersOf(response) });
    }
    if (response.ok && endpoint === "deleteToken" && options.deleteStatus === 204) {
      return new Response(null, { status: 204, headers: headersOf(response) });
    }
    return new Response(response.body, { status: response.status, headers: headersOf(response) });
  }

  /** The queued fault's answer, or undefined to let the host answer. */
  async function faulted(
    endpoint: Endpoint,
    echoBody: boolean,
    request: Request,
    credential: string,
    signal: AbortSignal,
  ) {
    const fault = faults[endpoint]?.shift();
    if (fault === "network") {
      throw new TypeError(`fetch failed: ${request.url}`, { cause: networkCause() });
    }
    if (fault === "hang") {
      return new Promise<never>((_, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason));
      });
    }
    if (fault === "lost") {
      await handle(endpoint, echoBody, request, credential);
      throw new TypeError(`socket hang up: ${request.url}`, { cause: networkCause() });
    }
    if (fault) {
      const headers = new Headers(fault.headers);
      if (date && !headers.has("Date")) {
        headers.set("Date", new Date(now()).toUTCString());
      }
      return new Response(fault.body ?? "", { status: fault.status, headers });
    }
    return undefined;
  }

  async function fetch(input: Request, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? input : new Request(input);
    // The call's signal comes beside the request, as the clients give it to fetch.
    const signal = init?.signal ?? request.signal;
    requests.push(request.clone());
    const { endpoint, echoBody } = endpointOf(request);
    if (!endpoint) {
      const response = await handler(await forwarded(endpoint, request));
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
    const answer = await faulted(endpoint, echoBody, request, credential, signal);
    if (answer) {
      return answer;
    }
    const response = await handle(endpoint, echoBody, request, credential);
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
    issuedRefreshTokens,
    /** Queues answers in place of the host's for the next calls to `endpoint`. */
    fail(endpoint: Endpoint, ...list: Fault[]) {
      faults[endpoint] = [...(faults[endpoint] ?? []), ...list];
    },
    totalTokenCalls: () => calls.exchange + calls.refresh,
    expiredAnswers: () => expiredAnswers,
  };
}

export type HostileHosts = ReturnType<typeof hostile>;
