// A user's test routes the client and auth packages to the sandbox through msw: no port, no server.
// Here rather than in the sandbox's tests, which cannot use auth (auth's tests use the sandbox).
import { apiTokens, createTokenManager, legacyLogin } from "@engage-voice/auth";
import { sandboxHandlers } from "@engage-voice/sandbox/msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const { handlers, apps } = sandboxHandlers();
const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterAll(() => server.close());

describe("the sandbox as msw handlers", () => {
  it("answers the exchange flow on the default production host, in process", async () => {
    const parent = apps.seed.parentTokens[0]?.token as string;
    const auth = createTokenManager({ rcAccessToken: parent, logger: {} });
    const { data, response } = await auth.client().GET("/voice/api/v1/admin/accounts");
    expect(response.status).toBe(200);
    expect(data?.map((account) => account.accountId)).toEqual(apps.seed.accountIds);
    expect(auth.session()?.mainAccountId).toBe(apps.seed.mainAccountId);
  });

  it("answers the deprecated host: direct login and permanent tokens", async () => {
    const login = apps.seed.legacyLogins[0] as { username: string; password: string; platformId: string };
    const { username, password, platformId } = login;
    const tokens = await legacyLogin({ username, password, platformId, logger: {} });
    const permanent = apiTokens({ auth: { accessToken: tokens.accessToken } });
    const created = await permanent.create();
    expect(await permanent.list()).toContain(created);
    await permanent.delete(created);
    expect(await permanent.list()).not.toContain(created);
  });

  it("refuses what the sandbox refuses: an unknown parent token", async () => {
    const auth = createTokenManager({ rcAccessToken: "not-seeded", logger: {} });
    await expect(auth.getAccessToken()).rejects.toMatchObject({ code: "exchange_rejected" });
  });

  it("takes other hosts, given as origins", () => {
    expect(() => sandboxHandlers({ baseUrl: "https://x.test/path" })).toThrow(/baseUrl must be an origin/);
    const other = sandboxHandlers({ baseUrl: "http://127.0.0.1:9", legacyBaseUrl: "http://127.0.0.1:10" });
    expect(other.handlers).toHaveLength(2);
  });
});
