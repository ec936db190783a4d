// The answers every contender gets, built once so that each call pays only for a new Response.
import { operation } from "@engage-voice/client";
import { defaultBaseUrls } from "@engage-voice/client/internal";

// The document's paths, from the generated table: the bench keeps no list of its own.
export const BASE_URL = defaultBaseUrls.main;
export const ACCOUNTS_PATH = operation("listAccounts").path;
export const EXCHANGE_PATH = operation("exchangeAccessToken").path;
export const REFRESH_PATH = operation("refreshAccessToken").path;

/** A small list of accounts, the size of a typical answer of the listing operation. */
export const ACCOUNTS_BODY = JSON.stringify([
  { accountId: "15001", accountName: "Support", isActive: true, mainAccountId: "15000" },
  { accountId: "15002", accountName: "Sales", isActive: true, mainAccountId: "15000" },
]);

const JSON_HEADERS = { "Content-Type": "application/json" };

export type Fetch = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/** An unsigned JWT issued at `issuedAt` that expires at `expiresAt` (ms since the epoch), as the platform's are. */
export function fakeJwt(issuedAt: number, expiresAt: number, subject = "bench"): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const payload = { sub: subject, iat: Math.floor(issuedAt / 1000), exp: Math.floor(expiresAt / 1000) };
  return `${encode({ alg: "none", typ: "JWT" })}.${encode(payload)}.`;
}

/** The body of a token exchange or refresh: a fresh access token that lives `lifetimeMs`, a new refresh token. */
export function tokenBody(now: number, lifetimeMs: number, serial: number): string {
  return JSON.stringify({
    accessToken: fakeJwt(now, now + lifetimeMs, `bench-${serial}`),
    refreshToken: `refresh-${serial}`,
    tokenType: "Bearer",
    agentDetails: [
      {
        agentId: 1,
        firstName: "Bench",
        lastName: "Agent",
        email: "bench@example.com",
        username: "bench",
        accountId: "15001",
        accountName: "Support",
      },
    ],
  });
}

export function accountsResponse(): Response {
  return new Response(ACCOUNTS_BODY, { status: 200, headers: JSON_HEADERS });
}

export function jsonResponse(body: string): Response {
  return new Response(body, { status: 200, headers: JSON_HEADERS });
}

function pathOf(input: Request | string | URL): string {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.indexOf("?", start);
  return end === -1 ? url.slice(start) : url.slice(start, end);
}

/**
 * A fetch with no network: token operations answer a token that lives `tokenLifetimeMs`, anything else
 * the account list. It counts token calls, which is what the coalescing check reads.
 */
export function stubServer(tokenLifetimeMs = 60 * 60_000, now: () => number = Date.now) {
  const counts = { token: 0, other: 0 };
  const fetch: Fetch = async (input) => {
    const path = pathOf(input);
    if (path === EXCHANGE_PATH || path === REFRESH_PATH) {
      counts.token += 1;
      return jsonResponse(tokenBody(now(), tokenLifetimeMs, counts.token));
    }
    counts.other += 1;
    return accountsResponse();
  };
  return { fetch, counts };
}
