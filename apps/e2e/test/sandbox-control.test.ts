// The sandbox's time control with the published token manager: a user's test of token handling
// advances the sandbox's clock instead of sleeping. In process (the manager's fetch is the app's), and
// here rather than in the sandbox's tests, which cannot use auth (auth's tests use the sandbox).
import { createTokenManager } from "@engage-voice/auth";
import { createSandboxApps } from "@engage-voice/sandbox/app";
import { fakeClock } from "@engage-voice/test-kit";
import { describe, expect, it } from "vitest";

/** Loopback, so that the token manager allows plain http; no socket is opened. */
const ORIGIN = "http://127.0.0.1:1";

describe("the sandbox's time control", () => {
  it("a token manager on the sandbox's clock renews across an expiry with no sleep: one refresh, no 401", async () => {
    const sandbox = createSandboxApps({
      tokenLifetimeMs: 2_000,
      now: fakeClock(Date.UTC(2030, 0, 1, 12, 0, 0)).now,
      control: { enabled: true },
    });
    let expired = 0;
    let refreshes = 0;
    const auth = createTokenManager({
      baseUrl: ORIGIN,
      rcAccessToken: sandbox.seed.parentTokens[0]?.token as string,
      clock: { now: () => sandbox.control.now() },
      logger: {},
      fetch: async (request) => {
        if (request.url.endsWith("/api/auth/token/refresh")) {
          refreshes++;
        }
        const response = await sandbox.main.fetch(request);
        if (response.status === 401) {
          expired++;
        }
        return response;
      },
    });
    const client = auth.client();
    await auth.getAccessToken();
    sandbox.control.advance(2_100);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => client.GET("/voice/api/v1/admin/accounts")),
    );
    expect(answers.every(({ response }) => response.status === 200)).toBe(true);
    expect(expired).toBe(0);
    expect(refreshes).toBe(1);
  });
});
