// Every operation of the document, called through the generated clients against a Prism mock of the
// same document (started with --errors by test/setup/prism.ts). Driven by the document: each
// operation of the generated table has a valid request in `validRequests`, sent once for each status
// its responses declare (picked with `Prefer`) and checked by the document oracle for status, content
// type, headers and body. The hand-written cases after it check what the document cannot say alone:
// named examples, parsed values, and requests that break the contract being rejected. A coverage
// check at the end fails for any documented status of any operation that no test of this file saw.

import { assertSchema, document, type Observed, responseProblems } from "@engage-voice/test-kit";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  createClient,
  createLegacyClient,
  type EngageVoiceClient,
  type LegacyClient,
  type Middleware,
  type OperationId,
  operationTable,
  pathTemplateOf,
} from "../src/index.js";

let main: EngageVoiceClient;
let legacy: LegacyClient;
const bearer = { Authorization: "Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln" };
const prefer = (value: string) => ({ ...bearer, Prefer: value });
/** The 401 of an expired token: its text is the second media type of the answer, so it is asked for. */
const jwtExpired = { ...prefer("code=401"), Accept: "text/plain" };

/** Every answer a test of this file received, as it came (the client has read its own copy). */
const observed: Observed[] = [];
const recorder: Middleware = {
  async onResponse({ request, response }) {
    const { method, url } = request;
    const body = await response.clone().text();
    observed.push({
      method,
      path: new URL(url).pathname,
      status: response.status,
      headers: response.headers,
      body,
    });
  },
};

beforeAll(() => {
  // Each documented status is asked for once and must reach the test as it came: no retries.
  main = createClient({ baseUrl: inject("prismUrl"), maxRetries: 0 });
  legacy = createLegacyClient({ baseUrl: inject("prismUrl"), maxRetries: 0 });
  main.use(recorder);
  legacy.use(recorder);
});

type Request = (headers: Record<string, string>) => Promise<{ response: Response }>;

/**
 * A request of each operation that its document accepts, by operationId: keyed by the generated
 * table's `OperationId`, so an operation added to the document and not here fails the typecheck.
 */
const validRequests = {
  exchangeAccessToken: (headers) =>
    main.POST("/api/auth/login/rc/accesstoken", {
      params: { query: { includeRefresh: true } },
      body: { rcAccessToken: "parent token", rcTokenType: "Bearer" },
      headers,
    }),
  refreshAccessToken: (headers) =>
    main.POST("/api/auth/token/refresh", {
      body: { refresh_token: "4f3c2b1a-0d9e", rcTokenType: "Bearer" },
      headers,
    }),
  listAccounts: (headers) => main.GET("/voice/api/v1/admin/accounts", { headers: { ...bearer, ...headers } }),
  listUsers: (headers) =>
    main.GET("/voice/api/v1/admin/users", {
      params: { query: { flatten: false } },
      headers: { ...bearer, ...headers },
    }),
  legacyLogin: (headers) =>
    legacy.POST("/api/auth/login/admin", {
      params: { query: { username: "lee.legacy@example.com", password: "p&ss+word= x", platformId: "p" } },
      headers,
    }),
  createApiToken: (headers) =>
    legacy.POST("/voice/api/v1/admin/token", { headers: { ...bearer, ...headers } }),
  listApiTokens: (headers) => legacy.GET("/voice/api/v1/admin/token", { headers: { ...bearer, ...headers } }),
  deleteApiToken: (headers) =>
    legacy.DELETE("/voice/api/v1/admin/token/{apiToken}", {
      params: { path: { apiToken: "aws80:c2353445-7d1c-4b51-9a2e-5f0c1e8b6a47" } },
      headers: { ...bearer, ...headers },
    }),
} satisfies Record<OperationId, Request>;

/** `METHOD template status` of each response the document declares, for every operation of the table. */
const documented = operationTable.flatMap(({ operationId, method, path }) =>
  Object.keys(document.paths[path]?.[method]?.responses ?? {}).map((status) => ({
    operationId,
    method: method.toUpperCase(),
    path,
    status: Number(status),
  })),
);

describe("every documented status of every operation, checked against the document", () => {
  it("has a valid request for each operation of the generated table, and for no other", () => {
    const missing = operationTable.map((op) => op.operationId).filter((id) => !(id in validRequests));
    expect(missing, "operations without a valid request in contract.test.ts's validRequests").toEqual([]);
    expect(Object.keys(validRequests).sort()).toEqual(operationTable.map((op) => op.operationId).sort());
  });

  it.each(documented)("$operationId ($method $path) answers $status as declared", async (entry) => {
    const before = observed.length;
    const { response } = await validRequests[entry.operationId]({ Prefer: `code=${entry.status}` });
    expect(response.status).toBe(entry.status);
    const answer = observed[before];
    expect(answer, "the recording middleware saw the answer").toBeDefined();
    expect(answer?.headers.get("sl-violations") ?? null).toBeNull();
    expect(responseProblems(answer as Observed)).toEqual([]);
  });
});

// Checked after every test of the file, whatever their order, as the sandbox's conformance test does:
// each status the document declares for an operation of the table was answered to one of them (so a
// run filtered with `-t` fails here: run the whole file).
afterAll(() => {
  const seen = new Set(
    observed.map(({ method, path, status }) => `${method} ${pathTemplateOf(path) ?? path} ${status}`),
  );
  const missing = documented
    .map(({ method, path, status }) => `${method} ${path} ${status}`)
    .filter((entry) => !seen.has(entry));
  expect(missing, "documented statuses no contract case received").toEqual([]);
});

function contentType(response: Response) {
  return response.headers.get("Content-Type")?.split(";")[0];
}

function expectApiError(response: Response, error: unknown, status: number) {
  expect(response.status).toBe(status);
  expect(contentType(response)).toBe("application/json");
  assertSchema("ApiError", error);
}

describe("POST /api/auth/login/rc/accesstoken (exchangeAccessToken)", () => {
  const body = { rcAccessToken: "parent token", rcTokenType: "Bearer" } as const;

  it("answers 200 with a token response that carries a refresh token", async () => {
    const { data, error, response } = await main.POST("/api/auth/login/rc/accesstoken", {
      params: { query: { includeRefresh: true } },
      body,
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(contentType(response)).toBe("application/json");
    assertSchema("TokenResponse", data);
    expect(data?.refreshToken).toEqual(expect.any(String));
    expect(data?.agentDetails?.[0]?.accountId).toMatch(/^\d+$/);
  });

  it("answers the named example without a refresh token", async () => {
    const { data } = await main.POST("/api/auth/login/rc/accesstoken", {
      body,
      headers: { Prefer: "example=withoutRefresh" },
    });
    assertSchema("TokenResponse", data);
    expect(data).not.toHaveProperty("refreshToken");
  });

  it.each([400, 401, 413])("answers %i with an ApiError", async (status) => {
    const { error, response } = await main.POST("/api/auth/login/rc/accesstoken", {
      body,
      headers: { Prefer: `code=${status}` },
    });
    expectApiError(response, error, status);
  });

  it("answers 429 with an ApiError and Retry-After", async () => {
    const { error, response } = await main.POST("/api/auth/login/rc/accesstoken", {
      body,
      headers: { Prefer: "code=429" },
    });
    expectApiError(response, error, 429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThanOrEqual(0);
  });

  it("rejects a form body without rcAccessToken", async () => {
    const { error, response } = await main.POST("/api/auth/login/rc/accesstoken", {
      // @ts-expect-error: rcAccessToken is required by the document
      body: { rcTokenType: "Bearer" },
    });
    expect(response.status).toBe(400);
    expect(error).toBeDefined();
    expect(response.headers.get("sl-violations")).toContain("rcAccessToken");
  });

  it("rejects an rcTokenType other than Bearer", async () => {
    const { response } = await main.POST("/api/auth/login/rc/accesstoken", {
      // @ts-expect-error: rcTokenType is fixed to "Bearer"
      body: { rcAccessToken: "t", rcTokenType: "Basic" },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("sl-violations")).toContain("rcTokenType");
  });

  it("rejects a JSON body where the document requires a form", async () => {
    const { response } = await main.POST("/api/auth/login/rc/accesstoken", {
      body,
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});

describe("POST /api/auth/token/refresh (refreshAccessToken)", () => {
  const body = { refresh_token: "4f3c2b1a-0d9e", rcTokenType: "Bearer" } as const;

  it("answers 200 with a new refresh token", async () => {
    const { data, response } = await main.POST("/api/auth/token/refresh", { body });
    expect(response.status).toBe(200);
    expect(contentType(response)).toBe("application/json");
    assertSchema("RefreshedTokenResponse", data);
    expect(data?.refreshToken).toEqual(expect.any(String));
  });

  it.each([400, 401, 413])("answers %i with an ApiError", async (status) => {
    const { error, response } = await main.POST("/api/auth/token/refresh", {
      body,
      headers: { Prefer: `code=${status}` },
    });
    expectApiError(response, error, status);
  });

  it("rejects a form body without refresh_token", async () => {
    const { response } = await main.POST("/api/auth/token/refresh", {
      // @ts-expect-error: refresh_token is required by the document
      body: { rcTokenType: "Bearer" },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("sl-violations")).toContain("refresh_token");
  });
});

describe("GET /voice/api/v1/admin/accounts (listAccounts)", () => {
  it("answers 200 with accounts", async () => {
    const { data, response } = await main.GET("/voice/api/v1/admin/accounts", { headers: bearer });
    expect(response.status).toBe(200);
    expect(contentType(response)).toBe("application/json");
    expect(Array.isArray(data)).toBe(true);
    for (const account of data ?? []) {
      assertSchema("Account", account);
    }
    expect(data?.[0]?.accountId).toMatch(/^\d+$/);
  });

  it("answers 401 with the text `Jwt is expired`, returned as the string error", async () => {
    const { data, error, response } = await main.GET("/voice/api/v1/admin/accounts", {
      headers: jwtExpired,
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(401);
    expect(contentType(response)).toBe("text/plain");
    expect(error).toBe("Jwt is expired");
  });

  it("answers 401 with an ApiError for unknown credentials, the first media type of the answer", async () => {
    const { error, response } = await main.GET("/voice/api/v1/admin/accounts", {
      headers: prefer("code=401"),
    });
    expectApiError(response, error, 401);
    expect(error).toMatchObject({ errorCode: "authentication.exception" });
  });

  it("answers 403 with an ApiError", async () => {
    const { error, response } = await main.GET("/voice/api/v1/admin/accounts", {
      headers: prefer("code=403"),
    });
    expectApiError(response, error, 403);
    expect(error).toMatchObject({ errorCode: "access.denied.exception" });
  });

  it("rejects a call without credentials", async () => {
    const { response } = await main.GET("/voice/api/v1/admin/accounts");
    expect(response.status).toBe(401);
  });
});

describe("GET /voice/api/v1/admin/users (listUsers)", () => {
  it("answers 200 with users nested in children", async () => {
    const { data, response } = await main.GET("/voice/api/v1/admin/users", { headers: bearer });
    expect(response.status).toBe(200);
    expect(contentType(response)).toBe("application/json");
    for (const user of data ?? []) {
      assertSchema("User", user);
    }
    expect(data?.[0]?.children?.length).toBeGreaterThan(0);
  });

  it("answers the flat example with flatten=true", async () => {
    const { data, response } = await main.GET("/voice/api/v1/admin/users", {
      params: { query: { flatten: true, activeOnly: true } },
      headers: prefer("example=flat"),
    });
    expect(response.status).toBe(200);
    for (const user of data ?? []) {
      assertSchema("User", user);
    }
    expect(data?.every((user) => user.children === undefined)).toBe(true);
  });

  it("answers 401 with `Jwt is expired`", async () => {
    const { error, response } = await main.GET("/voice/api/v1/admin/users", { headers: jwtExpired });
    expect(response.status).toBe(401);
    expect(error).toBe("Jwt is expired");
  });

  it.each([400, 403, 429])("answers %i with an ApiError", async (status) => {
    const { error, response } = await main.GET("/voice/api/v1/admin/users", {
      headers: prefer(`code=${status}`),
    });
    expectApiError(response, error, status);
  });

  it("rejects a flatten value that is not a boolean", async () => {
    const { response } = await main.GET("/voice/api/v1/admin/users", {
      // @ts-expect-error: flatten is a boolean
      params: { query: { flatten: "sideways" } },
      headers: bearer,
    });
    // Prism answers a request violation with the operation's declared 400.
    expect(response.status).toBe(400);
    expect(response.headers.get("sl-violations")).toContain("flatten");
  });
});

describe("POST /api/auth/login/admin (legacyLogin, deprecated host)", () => {
  const query = {
    username: "lee.legacy@example.com",
    password: "p&ss+word= x",
    platformId: "example-platform",
  };

  it("answers 200 with a token response", async () => {
    const { data, response } = await legacy.POST("/api/auth/login/admin", { params: { query } });
    expect(response.status).toBe(200);
    expect(contentType(response)).toBe("application/json");
    assertSchema("TokenResponse", data);
    expect(data?.refreshToken).toEqual(expect.any(String));
  });

  it.each([400, 401])("answers %i with an ApiError", async (status) => {
    const { error, response } = await legacy.POST("/api/auth/login/admin", {
      params: { query },
      headers: { Prefer: `code=${status}` },
    });
    expectApiError(response, error, status);
  });

  it("rejects a login without a password", async () => {
    const { response } = await legacy.POST("/api/auth/login/admin", {
      // @ts-expect-error: password is required
      params: { query: { username: "u", platformId: "p" } },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("sl-violations")).toContain("password");
  });
});

describe("POST /voice/api/v1/admin/token (createApiToken, deprecated host)", () => {
  it("answers 200 with the new token as a string, parsed from text/plain", async () => {
    const { data, response } = await legacy.POST("/voice/api/v1/admin/token", { headers: bearer });
    expect(response.status).toBe(200);
    expect(contentType(response)).toBe("text/plain");
    expect(typeof data).toBe("string");
    assertSchema("PermanentApiToken", data);
  });

  it("answers 401 with `Jwt is expired`", async () => {
    const { error, response } = await legacy.POST("/voice/api/v1/admin/token", {
      headers: jwtExpired,
    });
    expect(response.status).toBe(401);
    expect(error).toBe("Jwt is expired");
  });

  it("rejects a call without credentials", async () => {
    const { response } = await legacy.POST("/voice/api/v1/admin/token");
    expect(response.status).toBe(401);
  });
});

describe("GET /voice/api/v1/admin/token (listApiTokens, deprecated host)", () => {
  it.each([
    ["X-Auth-Token", { "X-Auth-Token": "aws80:c2353445-7d1c-4b51-9a2e-5f0c1e8b6a47" }],
    ["a bearer token", bearer],
  ])("answers 200 with a JSON array of tokens, authenticated with %s", async (_, headers) => {
    const { data, response } = await legacy.GET("/voice/api/v1/admin/token", { headers });
    expect(response.status).toBe(200);
    expect(contentType(response)).toBe("application/json");
    expect(Array.isArray(data)).toBe(true);
    for (const token of data ?? []) {
      assertSchema("PermanentApiToken", token);
    }
  });

  it("answers 401", async () => {
    const { error, response } = await legacy.GET("/voice/api/v1/admin/token", {
      headers: jwtExpired,
    });
    expect(response.status).toBe(401);
    expect(error).toBe("Jwt is expired");
  });

  it("rejects a call without credentials", async () => {
    const { response } = await legacy.GET("/voice/api/v1/admin/token");
    expect(response.status).toBe(401);
  });
});

describe("DELETE /voice/api/v1/admin/token/{apiToken} (deleteApiToken, deprecated host)", () => {
  const path = { apiToken: "aws80:c2353445-7d1c-4b51-9a2e-5f0c1e8b6a47" };
  const auth = { "X-Auth-Token": path.apiToken };

  it("answers 200 with the text `true`", async () => {
    const { data, response } = await legacy.DELETE("/voice/api/v1/admin/token/{apiToken}", {
      params: { path },
      headers: auth,
    });
    expect(response.status).toBe(200);
    expect(contentType(response)).toBe("text/plain");
    expect(data).toBe("true");
  });

  it("answers 204 without a body", async () => {
    const { data, response } = await legacy.DELETE("/voice/api/v1/admin/token/{apiToken}", {
      params: { path },
      headers: { ...auth, Prefer: "code=204" },
    });
    expect(response.status).toBe(204);
    expect(data).toBeUndefined();
  });

  it("answers 401 with `Jwt is expired`", async () => {
    const { error, response } = await legacy.DELETE("/voice/api/v1/admin/token/{apiToken}", {
      params: { path },
      headers: jwtExpired,
    });
    expect(response.status).toBe(401);
    expect(error).toBe("Jwt is expired");
  });

  it("answers 404 with an ApiError", async () => {
    const { error, response } = await legacy.DELETE("/voice/api/v1/admin/token/{apiToken}", {
      params: { path },
      headers: { ...auth, Prefer: "code=404" },
    });
    expectApiError(response, error, 404);
  });

  it("rejects a call without credentials", async () => {
    const { response } = await legacy.DELETE("/voice/api/v1/admin/token/{apiToken}", { params: { path } });
    expect(response.status).toBe(401);
  });
});
