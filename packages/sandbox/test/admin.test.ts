// Accounts and users: who sees what, the users tree and its flags, and the users rate limit.
import { describe, expect, it } from "vitest";
import { bearer, call, exchange, expectApiError, expectConforms, manualClock, open } from "./helpers.js";

const accounts = "/voice/api/v1/admin/accounts";
const users = "/voice/api/v1/admin/users";

async function tokenOf(mainUrl: string, parentToken = "sandbox-rc-token-ada"): Promise<string> {
  return (await exchange(mainUrl, parentToken, false)).json.accessToken;
}

type Node = { userId: number; enabled: boolean; children?: Node[] };
const ids = (nodes: Node[]): unknown[] =>
  nodes.map((n) => (n.children ? [n.userId, ids(n.children)] : n.userId));

describe("GET /voice/api/v1/admin/accounts", () => {
  it("answers a super user every sub-account of the main account", async () => {
    const { mainUrl } = await open();
    const answer = await call(mainUrl, accounts, bearer(await tokenOf(mainUrl)));
    expect(answer.status).toBe(200);
    expectConforms(answer);
    expect(answer.json.map((a: { accountId: string }) => a.accountId)).toEqual([
      "99990001",
      "99990002",
      "99990003",
    ]);
    for (const account of answer.json) {
      expect(account.mainAccount.mainAccountId).toBe("99990000");
    }
  });

  it("answers a plain agent only the account it belongs to", async () => {
    const { mainUrl } = await open();
    const answer = await call(mainUrl, accounts, bearer(await tokenOf(mainUrl, "sandbox-rc-token-rob")));
    expect(answer.json.map((a: { accountId: string }) => a.accountId)).toEqual(["99990002"]);
  });

  it("answers 403 ApiError to a user with NO_ACCESS", async () => {
    const { mainUrl } = await open({ parentTokens: { "token-of-nia": 1006 } });
    const answer = await call(mainUrl, accounts, bearer(await tokenOf(mainUrl, "token-of-nia")));
    expectApiError(answer, 403, /permission/);
    expectConforms(answer);
  });

  it.each([
    ["no credentials", {}, /Full authentication is required/],
    ["a Basic Authorization", { Authorization: "Basic dXNlcjpwYXNz" }, /must be Bearer/],
    ["an empty Bearer", { Authorization: "Bearer " }, /must be Bearer/],
    ["an X-Auth-Token instead of a bearer token", { "X-Auth-Token": "sbx01:x" }, /not X-Auth-Token/],
  ])("answers 401 ApiError for %s", async (_, headers, message) => {
    const { mainUrl } = await open();
    const answer = await call(mainUrl, accounts, { headers });
    expectApiError(answer, 401, message);
    expectConforms(answer);
  });
});

describe("GET /voice/api/v1/admin/users", () => {
  it("answers the users as a tree by default", async () => {
    const { mainUrl } = await open();
    const answer = await call(mainUrl, users, bearer(await tokenOf(mainUrl)));
    expect(answer.status).toBe(200);
    expectConforms(answer);
    expect(ids(answer.json)).toEqual([
      [
        1001,
        [
          [
            1002,
            [
              [1004, []],
              [1005, []],
            ],
          ],
          [1003, [[1006, []]]],
        ],
      ],
    ]);
    expect(answer.json[0]).toMatchObject({
      rootUser: true,
      parentPath: "/",
      roles: [{ roleType: "SUPER_USER" }],
    });
    expect(answer.json[0].children[0].children[0].parentPath).toBe("/1001/1002/");
  });

  it("answers a flat list in tree order with flatten=true", async () => {
    const { mainUrl } = await open();
    const answer = await call(mainUrl, `${users}?flatten=true`, bearer(await tokenOf(mainUrl)));
    expectConforms(answer);
    expect(answer.json.map((u: Node) => u.userId)).toEqual([1001, 1002, 1004, 1005, 1003, 1006]);
    for (const user of answer.json) {
      expect(user).not.toHaveProperty("children");
    }
  });

  it("leaves disabled users out with activeOnly=true, flat and as a tree", async () => {
    const { mainUrl } = await open();
    const token = await tokenOf(mainUrl);
    const flat = await call(mainUrl, `${users}?flatten=true&activeOnly=true`, bearer(token));
    expect(flat.json.map((u: Node) => u.userId)).toEqual([1001, 1002, 1004, 1003, 1006]);
    expect(flat.json.every((u: Node) => u.enabled)).toBe(true);
    const tree = await call(mainUrl, `${users}?activeOnly=true&flatten=false`, bearer(token));
    expectConforms(tree);
    expect(ids(tree.json)).toEqual([
      [
        1001,
        [
          [1002, [[1004, []]]],
          [1003, [[1006, []]]],
        ],
      ],
    ]);
  });

  it("answers 403 ApiError to a user without MANAGE_USERS or SUPER_USER", async () => {
    const { mainUrl } = await open();
    const answer = await call(mainUrl, users, bearer(await tokenOf(mainUrl, "sandbox-rc-token-rob")));
    expectApiError(answer, 403, /MANAGE_USERS or SUPER_USER/);
    expectConforms(answer);
  });

  it.each([
    ["flatten=yes", /flatten must be true or false/],
    ["activeOnly=1", /activeOnly must be true or false/],
    ["flatten=true&flatten=false", /flatten must be sent once/],
  ])("answers 400 ApiError for %s", async (query, message) => {
    const { mainUrl } = await open();
    const answer = await call(mainUrl, `${users}?${query}`, bearer(await tokenOf(mainUrl)));
    expectApiError(answer, 400, message);
  });

  it("answers 429 with Retry-After past the users rate limit", async () => {
    const clock = manualClock();
    const { mainUrl } = await open({ now: clock.now, usersRateLimit: { limit: 3, windowMs: 60_000 } });
    const token = await tokenOf(mainUrl);
    for (let i = 0; i < 3; i++) {
      expect((await call(mainUrl, users, bearer(token))).status).toBe(200);
    }
    clock.advance(15_500);
    const limited = await call(mainUrl, users, bearer(token));
    expectApiError(limited, 429, /Too many requests/);
    expectConforms(limited);
    expect(limited.headers.get("retry-after")).toBe("45");
    clock.advance(44_500);
    expect((await call(mainUrl, users, bearer(token))).status).toBe(200);
  });
});
