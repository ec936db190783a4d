// The per-call rows: this SDK's paths and peers that carry the same guards (a per-call timeout that
// aborts, retries of a failed GET, a bearer), each making the same call: GET the account list and
// read the parsed JSON body. Bare openapi-fetch (no guard) is the reference of the loopback budget.
import { createTenantPool, createTokenManager } from "@engage-voice/auth";
import { createClient, type paths } from "@engage-voice/client";
import ky from "ky";
import { createFetch } from "ofetch";
import OpenAI from "openai";
import createOpenApiClient from "openapi-fetch";
import { ACCOUNTS_PATH, type Fetch } from "./stub.ts";

/** A valid bearer token for the rows that do not manage one themselves. */
export const BEARER = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJiZW5jaCJ9.";

// The client's defaults (callDefaults of @engage-voice/client), given to every peer.
const TIMEOUT_MS = 30_000;
const RETRIES = 2;

export const NAMES = {
  floor: "hand-written floor: fetch + AbortSignal.timeout + retry loop + bearer",
  openapiFetch: "bare openapi-fetch (no timeout, no retry)",
  client: "@engage-voice/client createClient",
  middleware: "client.use(auth.middleware)",
  authFetch: "createClient({ fetch: auth.fetch })",
  authClient: "auth.client()",
  poolClient: "pool.get(tenant).client() per call",
  ky: "ky",
  ofetch: "ofetch",
  openai: "openai-node client.get()",
} as const;

/** This SDK's rows: the budget is about these. */
export const OURS = [NAMES.client, NAMES.middleware, NAMES.authFetch, NAMES.authClient, NAMES.poolClient];

export interface Row {
  name: string;
  call: () => Promise<unknown>;
}

const RETRIED = new Set([408, 429, 500, 502, 503, 504]);

/** What anyone would write by hand with the same guards: the floor of every row with guards. */
function floor(baseUrl: string, fetch: Fetch): Row["call"] {
  const url = `${baseUrl}${ACCOUNTS_PATH}`;
  return async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(url, {
          headers: { Authorization: `Bearer ${BEARER}` },
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        if (response.ok) {
          return await response.json();
        }
        if (!RETRIED.has(response.status) || attempt === RETRIES) {
          throw new Error(`answered ${response.status}`);
        }
      } catch (error) {
        if (attempt === RETRIES) {
          throw error;
        }
      }
    }
  };
}

/** Every row on one target (a stubbed fetch, or fetch to the loopback server), in table order. */
export async function rows(baseUrl: string, fetch: Fetch): Promise<Row[]> {
  const data = async (call: Promise<{ data?: unknown }>) => (await call).data;
  const bare = createOpenApiClient<paths>({ baseUrl, fetch, headers: { Authorization: `Bearer ${BEARER}` } });
  const client = createClient({ baseUrl, fetch, headers: { Authorization: `Bearer ${BEARER}` } });
  // Each authorised row holds a valid token before the first timed call (exchanged through the same fetch).
  const manager = async () => {
    const auth = createTokenManager({ baseUrl, rcAccessToken: "parent-platform-token", fetch, logger: {} });
    await auth.getAccessToken();
    return auth;
  };
  const withMiddleware = createClient({ baseUrl, fetch });
  withMiddleware.use((await manager()).middleware);
  const withAuthFetch = createClient({ baseUrl, fetch: (await manager()).fetch });
  const authClient = (await manager()).client();
  // The pool's documented per-request recipe: the tenant's manager and its client asked for each call.
  const pool = createTenantPool({
    rcAccessToken: () => "parent-platform-token",
    manager: { baseUrl, fetch, logger: {} },
  });
  await pool.get("tenant-1").getAccessToken();
  const kyClient = ky.create({
    baseUrl,
    fetch,
    timeout: TIMEOUT_MS,
    retry: RETRIES,
    headers: { Authorization: `Bearer ${BEARER}` },
  });
  const ofetch = createFetch({ fetch }).create({
    baseURL: baseUrl,
    timeout: TIMEOUT_MS,
    retry: RETRIES,
    headers: { Authorization: `Bearer ${BEARER}` },
  });
  // The whole request path of the SDK (auth header, timeout, retries, parse) through its generic get().
  const openai = new OpenAI({
    apiKey: BEARER,
    baseURL: baseUrl,
    fetch,
    timeout: TIMEOUT_MS,
    maxRetries: RETRIES,
  });
  return [
    { name: NAMES.floor, call: floor(baseUrl, fetch) },
    { name: NAMES.openapiFetch, call: () => data(bare.GET(ACCOUNTS_PATH)) },
    { name: NAMES.client, call: () => data(client.GET(ACCOUNTS_PATH)) },
    { name: NAMES.middleware, call: () => data(withMiddleware.GET(ACCOUNTS_PATH)) },
    { name: NAMES.authFetch, call: () => data(withAuthFetch.GET(ACCOUNTS_PATH)) },
    { name: NAMES.authClient, call: () => data(authClient.GET(ACCOUNTS_PATH)) },
    { name: NAMES.poolClient, call: () => data(pool.get("tenant-1").client().GET(ACCOUNTS_PATH)) },
    { name: NAMES.ky, call: () => kyClient.get(ACCOUNTS_PATH.slice(1)).json() },
    { name: NAMES.ofetch, call: () => ofetch(ACCOUNTS_PATH) },
    { name: NAMES.openai, call: () => openai.get(ACCOUNTS_PATH) },
  ];
}
