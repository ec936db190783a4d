// A token manager for tests that need no host: a stub answers its token exchange, the test's `api`
// answers every other request. Waits move a fake clock at once; log lines are recorded.
import { createTokenManager, type TokenManagerOptions } from "../src/index.js";
import { fakeClock, recordingLogger } from "./fake-server.js";

export const STUB = {
  baseUrl: "https://engage.example.test",
  parentToken: "rc-parent-secret-9b1c",
  accessToken: "access-secret-4e7f",
  refreshToken: "refresh-secret-5d2a",
} as const;

const EXCHANGE = "/api/auth/login/rc/accesstoken";

export type Api = (request: Request, init?: RequestInit) => Promise<Response>;

export function stubManager(api: Api, options: Partial<TokenManagerOptions> = {}) {
  const { lines, logger } = recordingLogger();
  const clock = fakeClock();
  const fetch: Api = (request, init) =>
    new URL(request.url).pathname === EXCHANGE
      ? Promise.resolve(Response.json({ accessToken: STUB.accessToken, refreshToken: STUB.refreshToken }))
      : api(request, init);
  /** The manager's clock, waits and logger, for a client the test makes itself. */
  const policy = { clock, sleep: async (ms: number) => clock.advance(ms), random: () => 0, logger };
  const auth = createTokenManager({
    ...policy,
    baseUrl: STUB.baseUrl,
    rcAccessToken: STUB.parentToken,
    fetch,
    ...options,
  });
  return { auth, lines, policy, fetch };
}

/** A fetch that answers only the abort of the signal given beside the request. */
export const hanging: Api = (_, init) =>
  new Promise<Response>((_, reject) =>
    init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
  );
