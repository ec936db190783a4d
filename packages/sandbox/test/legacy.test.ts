// The deprecated host: direct login and the permanent API token lifecycle.
import { describe, expect, it } from "vitest";
import { bearer, call, exchange, expectApiError, expectConforms, legacyLogin, open } from "./helpers.js";

const tokens = "/voice/api/v1/admin/token";
const tokenPath = (token: string) => `${tokens}/${encodeURIComponent(token)}`;
const xAuth = (token: string) => ({ headers: { "X-Auth-Token": token } });

describe("POST /api/auth/login/admin", () => {
  it("logs in with the seeded credentials: a very long access token and a shorter refresh token", async () => {
    const { legacyUrl } = await open();
    const answer = await legacyLogin(legacyUrl);
    expect(answer.status).toBe(200);
    expectConforms(answer);
    expect(answer.json.agentDetails[0]).toMatchObject({
      username: "lee.legacy@example.com",
      accountId: "99990003",
    });
    expect(answer.json.accessToken.length).toBeGreaterThan(answer.json.refreshToken.length * 5);
  });

  it("answers 401 ApiError for wrong credentials, without quoting them", async () => {
    const { legacyUrl } = await open();
    const answer = await legacyLogin(legacyUrl, "wrong-password-value");
    expectApiError(answer, 401, /Invalid username, password or platform/);
    expectConforms(answer);
    expect(answer.body).not.toContain("wrong-password-value");
    expect(answer.json.requestUri).toBe("/api/auth/login/admin - POST");
  });

  it.each(["username", "password", "platformId"])("answers 400 ApiError without %s", async (missing) => {
    const { legacyUrl } = await open();
    const query = new URLSearchParams({ username: "u", password: "p", platformId: "x" });
    query.delete(missing);
    const answer = await call(legacyUrl, `/api/auth/login/admin?${query}`, { method: "POST" });
    expectApiError(answer, 400, new RegExp(`Query parameter ${missing} is required`));
    expectConforms(answer);
  });

  it("answers 400 ApiError for an empty or repeated parameter", async () => {
    const { legacyUrl } = await open();
    const empty = await call(legacyUrl, "/api/auth/login/admin?username=&password=p&platformId=x", {
      method: "POST",
    });
    expectApiError(empty, 400, /username must not be empty/);
    const twice = await call(
      legacyUrl,
      "/api/auth/login/admin?username=a&username=b&password=p&platformId=x",
      {
        method: "POST",
      },
    );
    expectApiError(twice, 400, /username must be sent once/);
  });
});

describe("permanent API tokens", () => {
  it("creates a new token on every call, lists them and deletes them, authenticated either way", async () => {
    const { legacyUrl } = await open();
    const access = (await legacyLogin(legacyUrl)).json.accessToken;
    const created = [];
    for (let i = 0; i < 3; i++) {
      const answer = await call(legacyUrl, tokens, { method: "POST", ...bearer(access) });
      expect(answer.status).toBe(200);
      expectConforms(answer);
      expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
      created.push(answer.body);
    }
    expect(new Set(created).size).toBe(3);
    for (const token of created) {
      expect(token).toMatch(/^sbx01:[0-9a-f-]{36}$/);
    }

    const [first, second, third] = created as [string, string, string];
    for (const auth of [bearer(access), xAuth(first), xAuth(access)]) {
      const list = await call(legacyUrl, tokens, auth);
      expectConforms(list);
      expect(list.json).toEqual(created);
    }

    // A caller may delete the very token it authenticates with; after that it is unknown.
    const deleted = await call(legacyUrl, tokenPath(first), { method: "DELETE", ...xAuth(first) });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toBe("true");
    expectConforms(deleted);
    expectApiError(await call(legacyUrl, tokens, xAuth(first)), 401, /unknown or was deleted/);
    const again = await call(legacyUrl, tokenPath(first), { method: "DELETE", ...xAuth(second) });
    expectApiError(again, 404, /does not exist/);
    expectConforms(again);
    expect(again.body).not.toContain(first);

    // A raw colon in the path works as well as an encoded one.
    const raw = await call(legacyUrl, `${tokens}/${second}`, { method: "DELETE", ...bearer(access) });
    expect(raw.body).toBe("true");
    expect((await call(legacyUrl, tokens, xAuth(third))).json).toEqual([third]);
  });

  it("keeps each user's tokens to that user", async () => {
    const { mainUrl, legacyUrl } = await open();
    const lee = (await legacyLogin(legacyUrl)).json.accessToken;
    const ada = (await exchange(mainUrl, "sandbox-rc-token-ada", false)).json.accessToken;
    const leeToken = (await call(legacyUrl, tokens, { method: "POST", ...bearer(lee) })).body;
    const adaToken = (await call(legacyUrl, tokens, { method: "POST", ...bearer(ada) })).body;
    expect((await call(legacyUrl, tokens, bearer(ada))).json).toEqual([adaToken]);
    const foreign = await call(legacyUrl, tokenPath(leeToken), { method: "DELETE", ...bearer(ada) });
    expectApiError(foreign, 404);
    expect((await call(legacyUrl, tokens, xAuth(leeToken))).json).toEqual([leeToken]);
  });

  it("creates tokens only for a bearer access token", async () => {
    const { legacyUrl } = await open();
    const access = (await legacyLogin(legacyUrl)).json.accessToken;
    const apiToken = (await call(legacyUrl, tokens, { method: "POST", ...bearer(access) })).body;
    const withApiToken = await call(legacyUrl, tokens, { method: "POST", ...xAuth(apiToken) });
    expectApiError(withApiToken, 401, /not X-Auth-Token/);
    expectConforms(withApiToken);
    const apiTokenAsBearer = await call(legacyUrl, tokens, { method: "POST", ...bearer(apiToken) });
    expectApiError(apiTokenAsBearer, 401, /access token is invalid/);
  });

  it.each([
    ["no credentials", {}, /Full authentication is required/],
    ["an unknown X-Auth-Token", { "X-Auth-Token": "sbx01:00000000-0000-4000-8000-000000000000" }, /unknown/],
    ["a malformed bearer token", { Authorization: "Bearer abc" }, /access token is invalid/],
  ])("answers 401 ApiError on list for %s", async (_, headers, message) => {
    const { legacyUrl } = await open();
    const answer = await call(legacyUrl, tokens, { headers });
    expectApiError(answer, 401, message);
    expectConforms(answer);
  });
});
