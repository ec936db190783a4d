// The rows that need @engage-voice/auth. It is loaded on demand, so that the other rows still run (and
// say why these did not) when it has not been built.
import { createClient } from "@engage-voice/client";
import type { CoalescingSubject } from "./coalescing.ts";
import { type Contender, NAMES, type Target } from "./contenders.ts";
import { ACCOUNTS_PATH, BASE_URL, EXCHANGE_PATH, jsonResponse, REFRESH_PATH, tokenBody } from "./stub.ts";

type AuthModule = typeof import("@engage-voice/auth");

let loaded: Promise<AuthModule | string> | undefined;

/** The auth package, or why it cannot be loaded. */
export function loadAuth(): Promise<AuthModule | string> {
  loaded ??= import("@engage-voice/auth").catch(
    (error: Error) => `@engage-voice/auth cannot be loaded (${error.message.split("\n")[0]}): run pnpm build`,
  );
  return loaded;
}

const silent = {};

/** A manager on the target that already holds a valid token, or why there is none. */
async function readyManager(target: Target) {
  const auth = await loadAuth();
  if (typeof auth === "string") {
    return auth;
  }
  const manager = auth.createTokenManager({
    baseUrl: target.baseUrl,
    rcAccessToken: "parent-platform-token",
    fetch: target.fetch,
    logger: silent,
  });
  await manager.getAccessToken();
  return manager;
}

/** The client with the auth middleware, its manager holding a valid token before the first timed call. */
export async function authContender(target: Target): Promise<Contender> {
  const manager = await readyManager(target);
  if (typeof manager === "string") {
    return { name: NAMES.clientAuth, skipped: manager };
  }
  const client = createClient({ baseUrl: target.baseUrl, fetch: target.fetch });
  client.use(manager.middleware);
  return {
    name: NAMES.clientAuth,
    note: "token exchanged before timing",
    call: async () => (await client.GET(ACCOUNTS_PATH)).data,
  };
}

/** The same, with the manager's fetch as the client's fetch instead of its middleware. */
export async function authFetchContender(target: Target): Promise<Contender> {
  const manager = await readyManager(target);
  if (typeof manager === "string") {
    return { name: NAMES.clientAuthFetch, skipped: manager };
  }
  const client = createClient({ baseUrl: target.baseUrl, fetch: manager.fetch });
  return {
    name: NAMES.clientAuthFetch,
    note: "token exchanged before timing",
    call: async () => (await client.GET(ACCOUNTS_PATH)).data,
  };
}

/** The manager's own client: `auth.client()`, its fetch the manager's, its policy the manager's. */
export async function authClientContender(target: Target): Promise<Contender> {
  const manager = await readyManager(target);
  if (typeof manager === "string") {
    return { name: NAMES.authClient, skipped: manager };
  }
  const client = manager.client();
  return {
    name: NAMES.authClient,
    note: "token exchanged before timing",
    call: async () => (await client.GET(ACCOUNTS_PATH)).data,
  };
}

/** The spec's access-token lifetime. */
const LIFETIME_MS = 5 * 60_000;

/**
 * A manager on a stubbed token endpoint and a clock the bench moves: the accounts call answers with
 * the Authorization header it was sent, so each call tells which token it carried.
 */
export async function coalescingSubject(): Promise<CoalescingSubject | string> {
  const auth = await loadAuth();
  if (typeof auth === "string") {
    return auth;
  }
  let now = Date.now();
  let tokenCalls = 0;
  const fetch = async (request: Request) => {
    const path = new URL(request.url).pathname;
    if (path === EXCHANGE_PATH || path === REFRESH_PATH) {
      tokenCalls += 1;
      return jsonResponse(tokenBody(now, LIFETIME_MS, tokenCalls));
    }
    return jsonResponse(JSON.stringify({ authorization: request.headers.get("Authorization") }));
  };
  const manager = auth.createTokenManager({
    baseUrl: BASE_URL,
    rcAccessToken: "parent-platform-token",
    fetch,
    clock: { now: () => now },
    logger: silent,
  });
  const client = createClient({ baseUrl: BASE_URL, fetch });
  client.use(manager.middleware);
  await manager.getAccessToken();
  return {
    getToken: () => manager.getAccessToken(),
    call: async () => {
      const { data } = await client.GET(ACCOUNTS_PATH);
      const header = (data as unknown as { authorization: string | null }).authorization;
      return String(header).replace(/^Bearer /, "");
    },
    expire: () => {
      now += LIFETIME_MS + 1_000;
    },
    tokenCalls: () => tokenCalls,
  };
}
