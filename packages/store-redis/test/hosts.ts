// The hosts of the managers in these tests: the sandbox's contact-center host, in process, on a fake
// clock. What the tests read of it (exchanges, refreshes, spent refresh tokens presented again) is
// the sandbox's own counters.
import { createTokenManager } from "@engage-voice/auth";
import { createSandboxApps, USERS } from "@engage-voice/sandbox/app";
import { fakeClock, managersOn } from "@engage-voice/test-kit";

export const BASE = "https://engage.example.test";

/**
 * An exchange limit no test here reaches: a Redis outage may make managers exchange again, and a
 * `429` then would test the manager's rate-limit waits, which are auth's tests, not the store's.
 */
const UNREACHED_LIMIT = { limit: 100_000, windowMs: 60_000 };

/** A fresh sandbox on a fresh fake clock, and `managerOn(store, options)`: its token managers. */
export function sandboxHosts() {
  const clock = fakeClock();
  const sandbox = createSandboxApps({ now: () => clock.now(), exchangeRateLimit: UNREACHED_LIMIT });
  const parent = sandbox.seed.parentTokens[0] as (typeof sandbox.seed.parentTokens)[number];
  const server = {
    fetch: async (request: Request) => sandbox.main.fetch(request),
    parentToken: parent.token,
    /** The seeded user the parent token stands for. */
    parentUser: USERS.find((user) => user.userId === parent.userId) as (typeof USERS)[number],
    /** The sandbox's counters: exchanges, refreshes, spent refresh tokens presented again. */
    counters: () => sandbox.control.counters(),
    /** Exchanges and refreshes answered with tokens. */
    tokenCalls: () => sandbox.control.counters().exchanges + sandbox.control.counters().refreshes,
  };
  const managers = managersOn(createTokenManager, {
    baseUrl: BASE,
    rcAccessToken: server.parentToken,
    fetch: server.fetch,
    clock,
  });
  return { clock, server, ...managers };
}
