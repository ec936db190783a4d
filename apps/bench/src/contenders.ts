// The clients compared, each making the same call: GET the account list with a bearer token and
// read the parsed JSON body. Each is checked once for the right answer before it is timed.
import { createClient, type paths } from "@engage-voice/client";
import { SDK } from "@ringcentral/sdk";
import axios from "axios";
import createOpenApiClient from "openapi-fetch";
import { ACCOUNTS_PATH, type Fetch } from "./stub.ts";

export interface Contender {
  name: string;
  /** One call, resolving to the parsed body. */
  call?: () => Promise<unknown>;
  /** Why this contender is not timed here. */
  skipped?: string;
  /** How it is driven, when that differs from the others. */
  note?: string;
}

export interface Target {
  baseUrl: string;
  fetch: Fetch;
  /** The stubbed run drives axios through its fetch adapter; over HTTP it keeps its Node default. */
  transport: "stub" | "http";
}

/** A valid bearer token for the rows that do not manage one themselves. */
export const BEARER = "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJiZW5jaCJ9.";

export const NAMES = {
  raw: "raw fetch",
  openapiFetch: "openapi-fetch (bare, generated paths)",
  client: "@engage-voice/client",
  clientAuth: "@engage-voice/client + auth middleware",
  clientAuthFetch: "@engage-voice/client with fetch: auth.fetch",
  authClient: "auth.client()",
  clientHeader: "@engage-voice/client + a one-line header middleware",
  axios: "axios",
  ringcentral: "@ringcentral/sdk platform().get()",
} as const;

function raw({ baseUrl, fetch }: Target): Contender {
  const url = `${baseUrl}${ACCOUNTS_PATH}`;
  return {
    name: NAMES.raw,
    call: async () => {
      const response = await fetch(url, { headers: { Authorization: BEARER } });
      if (!response.ok) {
        throw new Error(`raw fetch answered ${response.status}`);
      }
      return response.json();
    },
  };
}

function openapiFetch({ baseUrl, fetch }: Target): Contender {
  const client = createOpenApiClient<paths>({ baseUrl, fetch, headers: { Authorization: BEARER } });
  return {
    name: NAMES.openapiFetch,
    call: async () => (await client.GET(ACCOUNTS_PATH)).data,
  };
}

function engageVoiceClient({ baseUrl, fetch }: Target): Contender {
  const client = createClient({ baseUrl, fetch, headers: { Authorization: BEARER } });
  return {
    name: NAMES.client,
    call: async () => (await client.GET(ACCOUNTS_PATH)).data,
  };
}

/**
 * The floor of any auth middleware: one that sets the header on the request it is given. It tells
 * what openapi-fetch's middleware machinery costs apart from what a middleware does.
 */
export function headerMiddleware({ baseUrl, fetch }: Target): Contender {
  const client = createClient({ baseUrl, fetch });
  client.use({
    onRequest: ({ request }) => {
      request.headers.set("Authorization", BEARER);
      return request;
    },
  });
  return {
    name: NAMES.clientHeader,
    note: "reference: the cost of openapi-fetch's middleware path",
    call: async () => (await client.GET(ACCOUNTS_PATH)).data,
  };
}

function axiosContender({ baseUrl, fetch, transport }: Target): Contender {
  const instance =
    transport === "stub"
      ? axios.create({ baseURL: baseUrl, adapter: "fetch", env: { fetch } })
      : axios.create({ baseURL: baseUrl });
  return {
    name: NAMES.axios,
    note: transport === "stub" ? "fetch adapter, same stubbed fetch" : "Node http adapter (its default)",
    call: async () => (await instance.get(ACCOUNTS_PATH, { headers: { Authorization: BEARER } })).data,
  };
}

async function ringcentral({ baseUrl, fetch }: Target): Promise<Contender> {
  // The SDK takes its Fetch API from `externals`; a session is loaded into its store as a login
  // would leave it, so that each call goes through its whole request path (auth check, headers).
  const sdk = new SDK({ server: baseUrl, clientId: "bench", fetch, Request, Response, Headers });
  const platform = sdk.platform();
  await platform.auth().setData({
    token_type: "bearer",
    access_token: BEARER.slice("Bearer ".length),
    expires_in: "3600",
    refresh_token: "refresh",
    refresh_token_expires_in: "604800",
  });
  return {
    name: NAMES.ringcentral,
    note: "Fetch API and a logged-in session passed in",
    call: async () => (await platform.get(ACCOUNTS_PATH)).json(),
  };
}

/** Every contender on a target, in table order. */
export async function contenders(target: Target, extra: Contender[] = []): Promise<Contender[]> {
  return [
    raw(target),
    openapiFetch(target),
    engageVoiceClient(target),
    ...extra,
    axiosContender(target),
    await ringcentral(target),
  ];
}

/** Calls each contender once and checks that it read the account list, so that no row times a failure. */
export async function verify(list: Contender[], expected: unknown): Promise<void> {
  const want = JSON.stringify(expected);
  for (const contender of list) {
    if (!contender.call) {
      continue;
    }
    const got = JSON.stringify(await contender.call());
    if (got !== want) {
      throw new Error(`${contender.name} did not read the account list (got ${got.slice(0, 80)})`);
    }
  }
}
