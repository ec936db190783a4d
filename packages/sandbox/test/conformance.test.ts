// Contract conformance: a full scenario goes through `prism proxy --errors` in front of each host,
// so Prism checks every request and every answer against spec/dist/openapi.json, and each answer is
// checked again here against the operation's declared status, content type, headers and schema.
// Requests Prism itself rejects before forwarding (missing credentials, malformed input) are sent
// straight to the sandbox and their answers checked against the document the same way.

import { pathTemplateOf } from "@engage-voice/client";
import { document, documentOperations, responseProblems } from "@engage-voice/test-kit";
import { startPrism } from "@engage-voice/test-kit/servers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../src/node.js";
import { startSandbox } from "../src/node.js";
import { type Answer, bearer, call, form, manualClock } from "./helpers.js";

type Prism = { url: string; stop(): Promise<void> };

const clock = manualClock();
let sandbox: RunningSandbox;
let mainProxy: Prism;
let legacyProxy: Prism;
/** `METHOD template status` of every answer checked: a path parameter (an API token) as the document names it. */
const checked: string[] = [];
const record = (answer: Answer) =>
  checked.push(`${answer.method} ${pathTemplateOf(answer.path) ?? answer.path} ${answer.status}`);

beforeAll(async () => {
  sandbox = await startSandbox({
    now: clock.now,
    tokenLifetimeMs: 30_000,
    usersRateLimit: { limit: 4, windowMs: 60_000 },
    parentTokens: { "sandbox-rc-token-ada": 1001, "sandbox-rc-token-rob": 1004, "token-of-nia": 1006 },
  });
  [mainProxy, legacyProxy] = (await Promise.all([
    startPrism({ upstream: sandbox.mainUrl }),
    startPrism({ upstream: sandbox.legacyUrl }),
  ])) as [Prism, Prism];
  // Two Prisms starting on a machine busy with other suites: a hang guard, not a verdict.
}, 180_000);

afterAll(async () => {
  await Promise.all([mainProxy?.stop(), legacyProxy?.stop(), sandbox?.stop()]);
});

// Every test starts with fresh rate-limit windows and every earlier access token expired.
beforeEach(() => clock.advance(61_000));

/** A call through the proxy of a host: the sandbox answered, and neither Prism nor the oracle objects. */
async function through(host: "main" | "legacy", path: string, init: RequestInit = {}): Promise<Answer> {
  const answer = await call(host === "main" ? mainProxy.url : legacyProxy.url, path, init);
  const label = `${answer.method} ${path} -> ${answer.status}`;
  expect(answer.headers.get("sl-violations"), label).toBeNull();
  expect(answer.headers.get("content-type") ?? "", `${label}: answered by Prism itself`).not.toMatch(
    /problem\+json/,
  );
  expect(responseProblems(answer), label).toEqual([]);
  record(answer);
  return answer;
}

/** A call Prism would refuse before forwarding, sent straight to the sandbox and checked the same way. */
async function direct(host: "main" | "legacy", path: string, init: RequestInit = {}): Promise<Answer> {
  const answer = await call(host === "main" ? sandbox.mainUrl : sandbox.legacyUrl, path, init);
  expect(responseProblems(answer), `${answer.method} ${path} -> ${answer.status}`).toEqual([]);
  record(answer);
  return answer;
}

const exchangeForm = (token = "sandbox-rc-token-ada") =>
  form({ rcAccessToken: token, rcTokenType: "Bearer" });
const refreshForm = (token: string) => form({ refresh_token: token, rcTokenType: "Bearer" });
const exchangePath = "/api/auth/login/rc/accesstoken";

describe("through prism proxy --errors", () => {
  it("exchange with and without a refresh token, and with a rejected parent token", async () => {
    expect(
      (await through("main", `${exchangePath}?includeRefresh=true`, exchangeForm())).json.refreshToken,
    ).toBeTruthy();
    expect((await through("main", exchangePath, exchangeForm())).json.refreshToken).toBeUndefined();
    expect((await through("main", `${exchangePath}?includeRefresh=false`, exchangeForm())).status).toBe(200);
    expect((await through("main", exchangePath, exchangeForm("unknown-parent-token"))).status).toBe(401);
  });

  it("refresh rotation, a spent token, a revoked session and an unknown token", async () => {
    const first = (await through("main", `${exchangePath}?includeRefresh=true`, exchangeForm())).json;
    const second = await through("main", "/api/auth/token/refresh", refreshForm(first.refreshToken));
    expect(second.status).toBe(200);
    expect((await through("main", "/api/auth/token/refresh", refreshForm(first.refreshToken))).status).toBe(
      401,
    );
    expect(
      (await through("main", "/api/auth/token/refresh", refreshForm(second.json.refreshToken))).status,
    ).toBe(401);
    expect((await through("main", "/api/auth/token/refresh", refreshForm("no-such-token"))).status).toBe(401);
  });

  it("accounts and users for each kind of user, flags included", async () => {
    const token = async (parent: string) =>
      (await through("main", exchangePath, exchangeForm(parent))).json.accessToken;
    const ada = await token("sandbox-rc-token-ada");
    const rob = await token("sandbox-rc-token-rob");
    const nia = await token("token-of-nia");
    expect((await through("main", "/voice/api/v1/admin/accounts", bearer(ada))).json).toHaveLength(3);
    expect((await through("main", "/voice/api/v1/admin/accounts", bearer(rob))).json).toHaveLength(1);
    expect((await through("main", "/voice/api/v1/admin/accounts", bearer(nia))).status).toBe(403);
    expect((await through("main", "/voice/api/v1/admin/users", bearer(ada))).status).toBe(200);
    expect((await through("main", "/voice/api/v1/admin/users?flatten=true", bearer(ada))).json).toHaveLength(
      6,
    );
    const active = await through(
      "main",
      "/voice/api/v1/admin/users?flatten=true&activeOnly=true",
      bearer(ada),
    );
    expect(active.json).toHaveLength(5);
    expect((await through("main", "/voice/api/v1/admin/users", bearer(rob))).status).toBe(403);
  });

  it("the users rate limit", async () => {
    const ada = (await through("main", exchangePath, exchangeForm())).json.accessToken;
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await through("main", "/voice/api/v1/admin/users", bearer(ada))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it("an expired access token and an invalid one", async () => {
    const ada = (await through("main", exchangePath, exchangeForm())).json.accessToken;
    clock.advance(30_000);
    const expired = await through("main", "/voice/api/v1/admin/accounts", bearer(ada));
    expect(expired.body).toBe("Jwt is expired");
    expect((await through("main", "/voice/api/v1/admin/users", bearer(ada))).body).toBe("Jwt is expired");
    const invalid = await through("main", "/voice/api/v1/admin/accounts", bearer("not.a.jwt"));
    expect(invalid.json.errorCode).toBe("authentication.exception");
  });

  it("direct login and the permanent-token lifecycle with bearer and X-Auth-Token", async () => {
    const query = "username=lee.legacy%40example.com&password=sandbox-password&platformId=sandbox-platform";
    const login = await through("legacy", `/api/auth/login/admin?${query}`, { method: "POST" });
    const wrong = "username=lee.legacy%40example.com&password=nope&platformId=sandbox-platform";
    expect((await through("legacy", `/api/auth/login/admin?${wrong}`, { method: "POST" })).status).toBe(401);
    const access = login.json.accessToken;
    const created = (
      await through("legacy", "/voice/api/v1/admin/token", { method: "POST", ...bearer(access) })
    ).body;
    const other = (
      await through("legacy", "/voice/api/v1/admin/token", { method: "POST", ...bearer(access) })
    ).body;
    expect(created).not.toBe(other);
    const xAuth = (token: string) => ({ headers: { "X-Auth-Token": token } });
    expect((await through("legacy", "/voice/api/v1/admin/token", bearer(access))).json).toEqual([
      created,
      other,
    ]);
    expect((await through("legacy", "/voice/api/v1/admin/token", xAuth(created))).json).toEqual([
      created,
      other,
    ]);
    const path = `/voice/api/v1/admin/token/${encodeURIComponent(created)}`;
    expect((await through("legacy", path, { method: "DELETE", ...xAuth(created) })).body).toBe("true");
    expect((await through("legacy", path, { method: "DELETE", ...xAuth(other) })).status).toBe(404);
    expect((await through("legacy", "/voice/api/v1/admin/token", xAuth(created))).status).toBe(401);
    expect((await through("legacy", "/voice/api/v1/admin/token", bearer("not.a.jwt"))).status).toBe(401);
    clock.advance(30_000);
    expect(
      (await through("legacy", "/voice/api/v1/admin/token", { method: "POST", ...bearer(access) })).body,
    ).toBe("Jwt is expired");
  });

  it("the exchange rate limit, with Retry-After", async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await through("main", exchangePath, exchangeForm())).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe("straight to the sandbox, for what Prism refuses before forwarding", () => {
  it("missing or malformed form fields and a bad includeRefresh answer the declared 400", async () => {
    const bodies = [
      "rcTokenType=Bearer",
      "rcAccessToken=a",
      "rcAccessToken=a&rcTokenType=Basic",
      "rcAccessToken=&rcTokenType=Bearer",
    ];
    for (const body of bodies) {
      const headers = { "Content-Type": "application/x-www-form-urlencoded" };
      expect((await direct("main", exchangePath, { method: "POST", headers, body })).status).toBe(400);
    }
    const json = { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" };
    expect((await direct("main", exchangePath, json)).status).toBe(400);
    expect((await direct("main", "/api/auth/token/refresh", json)).status).toBe(400);
    expect((await direct("main", "/api/auth/token/refresh", form({ rcTokenType: "Bearer" }))).status).toBe(
      400,
    );
    expect((await direct("main", `${exchangePath}?includeRefresh=maybe`, exchangeForm())).status).toBe(400);
  });

  it("missing or wrong credentials answer the declared JSON 401", async () => {
    for (const path of ["/voice/api/v1/admin/accounts", "/voice/api/v1/admin/users"]) {
      expect((await direct("main", path)).status).toBe(401);
      expect((await direct("main", path, { headers: { Authorization: "Basic eDp5" } })).status).toBe(401);
    }
    expect((await direct("legacy", "/voice/api/v1/admin/token")).status).toBe(401);
    expect((await direct("legacy", "/voice/api/v1/admin/token", { method: "POST" })).status).toBe(401);
    const apiTokenOnCreate = { method: "POST", headers: { "X-Auth-Token": "sbx01:abc" } };
    expect((await direct("legacy", "/voice/api/v1/admin/token", apiTokenOnCreate)).status).toBe(401);
    expect((await direct("legacy", "/voice/api/v1/admin/token/sbx01:abc", { method: "DELETE" })).status).toBe(
      401,
    );
  });

  it("missing login parameters answer the declared 400", async () => {
    for (const query of ["", "username=a&password=b", "username=a&platformId=c", "password=b&platformId=c"]) {
      expect((await direct("legacy", `/api/auth/login/admin?${query}`, { method: "POST" })).status).toBe(400);
    }
  });

  it("a form body over the limit answers the declared 413", async () => {
    const huge = "x".repeat(20_000);
    expect(
      (await through("main", exchangePath, form({ rcAccessToken: huge, rcTokenType: "Bearer" }))).status,
    ).toBe(413);
    expect((await through("main", "/api/auth/token/refresh", refreshForm(huge))).status).toBe(413);
  });

  it("a users flag that is not a boolean answers the declared 400", async () => {
    const { accessToken } = (await through("main", `${exchangePath}?includeRefresh=true`, exchangeForm()))
      .json;
    const headers = { Authorization: `Bearer ${accessToken}` };
    expect((await direct("main", "/voice/api/v1/admin/users?flatten=maybe", { headers })).status).toBe(400);
  });
});

/** Documented answers the sandbox never gives, each with the reason. */
const NOT_ANSWERED: Record<string, string> = {
  "DELETE /voice/api/v1/admin/token/{apiToken} 204":
    "the sandbox answers a delete with 200 and the text `true`",
};

// Checked after every test of the file, whatever their order: each status the document declares for
// an operation, read from the document, was seen through the proxy or straight from the sandbox.
afterAll(() => {
  const seen = new Set(checked);
  const missing: string[] = [];
  for (const { method, path } of documentOperations) {
    for (const status of Object.keys(document.paths[path]?.[method]?.responses ?? {})) {
      const entry = `${method.toUpperCase()} ${path} ${status}`;
      if (!seen.has(entry) && !(entry in NOT_ANSWERED)) {
        missing.push(entry);
      }
    }
  }
  expect(missing, "documented statuses the conformance run never saw").toEqual([]);
});
