// Property-based fuzzing: requests generated from the document's operations, valid and broken
// (wrong methods, paths, hosts, content types, bodies, query strings and credentials; huge and
// non-UTF-8 bodies). Whatever comes in, the sandbox answers without a 5xx, every error is the
// ApiError JSON or the specified text 401, and every answer to a documented status conforms.

import { httpMethods, type OperationId, operationTable } from "@engage-voice/client";
import { documentOperations, operationOf, responseProblems, schemaProblems } from "@engage-voice/test-kit";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../src/node.js";
import { call, exchange, form, legacyLogin, manualClock } from "./helpers.js";

const SEED = 20_251_121;
const RUNS = 300;

const clock = manualClock();
let sandbox: RunningSandbox;
const tokens = { valid: "", legacy: "", expired: "", apiToken: "", refresh: "", deletable: "" };

beforeAll(async () => {
  sandbox = await startSandbox({
    now: clock.now,
    tokenLifetimeMs: 60_000,
    // Low, so that the seeded run meets the 429 among its few exchanges (the clock never moves).
    exchangeRateLimit: { limit: 3, windowMs: 60_000 },
  });
  tokens.expired = (await exchange(sandbox.mainUrl)).json.accessToken;
  clock.advance(61_000);
  const exchanged = (await exchange(sandbox.mainUrl)).json;
  tokens.valid = exchanged.accessToken;
  tokens.refresh = exchanged.refreshToken;
  tokens.legacy = (await legacyLogin(sandbox.legacyUrl)).json.accessToken;
  tokens.apiToken = (
    await call(sandbox.legacyUrl, "/voice/api/v1/admin/token", {
      method: "POST",
      headers: { Authorization: `Bearer ${tokens.legacy}` },
    })
  ).body;
});

afterAll(() => sandbox?.stop());

const operations = documentOperations.map(({ path, method }) => ({ path, method: method.toUpperCase() }));
const headerText = fc.stringMatching(/^[\x21-\x7e]{0,60}$/);
const anyText = fc.string({ unit: "binary", maxLength: 80 });

const pathOf = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...operations.map((o) => o.path)) },
  { weight: 1, arbitrary: fc.webPath() },
  {
    weight: 1,
    arbitrary: fc.constantFrom("/", "/voice/api/v1/admin/", "/api/auth/token/refresh/", "/__sandbox/faults"),
  },
);

const apiTokenSegment = fc.oneof(
  fc.constant(() => tokens.apiToken),
  fc.constant(() => encodeURIComponent(tokens.apiToken)),
  fc.webSegment().map((segment) => () => segment),
  fc.constant(() => "%FF%FE"),
);

const queryValue = fc.oneof(
  fc.constantFrom(
    "true",
    "false",
    "",
    "lee.legacy@example.com",
    "sandbox-password",
    "sandbox-platform",
    "%FF",
  ),
  anyText.map(encodeURIComponent),
);
const queryName = fc.oneof(
  fc.constantFrom("includeRefresh", "flatten", "activeOnly", "username", "password", "platformId"),
  fc.webSegment(),
);
const query = fc.oneof(
  fc
    .array(fc.tuple(queryName, queryValue), { maxLength: 5 })
    .map((pairs) => pairs.map(([n, v]) => `${n}=${v}`).join("&")),
  fc.webQueryParameters(),
);

const credential = fc.constantFrom<() => string>(
  () => tokens.valid,
  () => tokens.legacy,
  () => tokens.expired,
  () => tokens.apiToken,
  () => `${tokens.valid.slice(0, -4)}AAAA`,
  () => "a.b.c",
);
const headers = fc.record(
  {
    authorization: fc.oneof(
      credential.map((token) => () => `Bearer ${token()}`),
      headerText.map((text) => () => text),
      fc.constant(() => "Basic dXNlcjpwYXNz"),
    ),
    xAuthToken: fc.oneof(
      credential,
      headerText.map((text) => () => text),
    ),
    contentType: fc.oneof(
      fc.constantFrom(
        "application/x-www-form-urlencoded",
        "application/x-www-form-urlencoded; charset=UTF-8",
        "application/json",
        "multipart/form-data; boundary=x",
        "text/plain",
      ),
      headerText,
    ),
    origin: fc.constantFrom("http://127.0.0.1:5173", "https://example.com", "null"),
  },
  { requiredKeys: [] },
);

const formField = fc.oneof(
  fc.constantFrom("rcAccessToken", "rcTokenType", "refresh_token"),
  fc.string({ maxLength: 12 }),
);
const formValue = fc.oneof(
  fc.constantFrom<() => string>(
    () => "sandbox-rc-token-ada",
    () => "Bearer",
    () => tokens.refresh,
    () => "",
  ),
  anyText.map((text) => () => text),
);
const body = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .array(fc.tuple(formField, formValue), { maxLength: 4 })
      .map((fields) => () => new URLSearchParams(fields.map(([n, v]) => [n, v()])).toString()),
  },
  { weight: 1, arbitrary: anyText.map((text) => () => text) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => () => bytes) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 16_385, max: 40_000 }).map((size) => () => "a=".padEnd(size, "x")),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => () => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.constant(() => undefined) },
);

/** The host that serves a drawn path, from the generated table; a path of no operation goes to the main host. */
const hostOf = (path: string): "main" | "legacy" =>
  operationTable.find((op) => op.path === path)?.host ?? "main";

/** Anything goes: each part drawn from valid and broken values independently. */
const broken = fc
  .record({
    wrongHost: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    method: fc.oneof(
      { weight: 4, arbitrary: fc.constant<string | undefined>(undefined) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          // fetch refuses to send TRACE (a forbidden method), so the fuzzer cannot try it.
          ...httpMethods.filter((name) => name !== "trace").map((name) => name.toUpperCase()),
        ),
      },
    ),
    path: pathOf,
    apiToken: apiTokenSegment,
    query: fc.option(query, { nil: undefined }),
    headers,
    body,
  })
  .map(({ wrongHost, ...rest }) => {
    const host = hostOf(rest.path);
    return { ...rest, host: wrongHost ? (host === "main" ? "legacy" : "main") : host } as const;
  });

const FORM = "application/x-www-form-urlencoded";
const bool = fc.constantFrom("true", "false");

type Generated = {
  host: "main" | "legacy";
  method: string | undefined;
  path: string;
  /** The value of each path parameter the request names; any other gets `apiToken`'s. */
  pathParams?: Record<string, () => string>;
  apiToken: () => string;
  query: string | undefined;
  headers: { authorization?: () => string; xAuthToken?: () => string; contentType?: string; origin?: string };
  body: () => string | Uint8Array<ArrayBuffer> | undefined;
  /** The operation whose valid request this is; none for a broken one. */
  operationId?: OperationId;
  /** Run before the request is sent: what a valid request needs first, such as a token of its own to delete. */
  before?: () => Promise<void>;
};
/** What a valid request of an operation adds to the operation's method, path and host. */
type ValidPart = Pick<Generated, "query" | "headers" | "body" | "pathParams" | "before">;

const legacyBearer = { authorization: () => `Bearer ${tokens.legacy}` };
const noBody = () => undefined;

/**
 * A request of each operation as the document describes it, so that the happy paths are fuzzed too:
 * keyed by the generated table's `OperationId`, so an operation added to the document and not here
 * fails the type check of the test script (and the first test below names it).
 */
const validRequests = {
  exchangeAccessToken: fc
    .record({ parent: fc.constantFrom("sandbox-rc-token-ada", "sandbox-rc-token-rob"), refresh: bool })
    .map(({ parent, refresh }) => ({
      query: `includeRefresh=${refresh}`,
      headers: { contentType: FORM },
      body: () => `rcAccessToken=${parent}&rcTokenType=Bearer`,
    })),
  refreshAccessToken: fc.constant({
    query: undefined,
    headers: { contentType: FORM },
    body: () => `refresh_token=${tokens.refresh}&rcTokenType=Bearer`,
  }),
  listAccounts: fc.constant({
    query: undefined,
    headers: { authorization: () => `Bearer ${tokens.valid}` },
    body: noBody,
  }),
  listUsers: fc.record({ flatten: bool, activeOnly: bool }).map(({ flatten, activeOnly }) => ({
    query: `flatten=${flatten}&activeOnly=${activeOnly}`,
    headers: { authorization: () => `Bearer ${tokens.valid}` },
    body: noBody,
  })),
  legacyLogin: fc.constant({
    query: "username=lee.legacy%40example.com&password=sandbox-password&platformId=sandbox-platform",
    headers: {},
    body: noBody,
  }),
  createApiToken: fc.constant({ query: undefined, headers: legacyBearer, body: noBody }),
  listApiTokens: fc
    .constantFrom<ValidPart["headers"]>(legacyBearer, { xAuthToken: () => tokens.apiToken })
    .map((headers) => ({ query: undefined, headers, body: noBody })),
  // Each delete spends a token made for it, so that the API token the other requests send stays valid.
  deleteApiToken: fc.constant({
    query: undefined,
    headers: legacyBearer,
    body: noBody,
    pathParams: { apiToken: () => tokens.deletable },
    before: async () => {
      tokens.deletable = (
        await call(sandbox.legacyUrl, "/voice/api/v1/admin/token", {
          method: "POST",
          headers: { Authorization: `Bearer ${tokens.legacy}` },
        })
      ).body;
    },
  }),
} satisfies Record<OperationId, fc.Arbitrary<ValidPart>>;

/** A valid request of every operation of the generated table, with its method, path and host from there. */
const valid = fc.oneof(
  ...operationTable.map((op) =>
    (validRequests[op.operationId] as fc.Arbitrary<ValidPart>).map(
      (part): Generated => ({
        host: op.host,
        method: op.method.toUpperCase(),
        path: op.path,
        apiToken: () => tokens.apiToken,
        operationId: op.operationId,
        ...part,
      }),
    ),
  ),
);

const request = fc.oneof({ weight: 1, arbitrary: valid }, { weight: 3, arbitrary: broken });

async function send(generated: Generated) {
  await generated.before?.();
  const method = generated.method ?? operations.find((o) => o.path === generated.path)?.method ?? "GET";
  const path = generated.path.replace(
    /\{([^}/]+)\}/g,
    (_, name: string) => generated.pathParams?.[name]?.() ?? generated.apiToken(),
  );
  const url = `${path}${generated.query === undefined ? "" : `?${generated.query}`}`;
  const h: Record<string, string> = {};
  if (generated.headers.authorization) {
    h.Authorization = generated.headers.authorization();
  }
  if (generated.headers.xAuthToken) {
    h["X-Auth-Token"] = generated.headers.xAuthToken();
  }
  if (generated.headers.contentType !== undefined) {
    h["Content-Type"] = generated.headers.contentType;
  }
  if (generated.headers.origin) {
    h.Origin = generated.headers.origin;
  }
  const payload = method === "GET" || method === "HEAD" ? undefined : generated.body();
  const base = generated.host === "main" ? sandbox.mainUrl : sandbox.legacyUrl;
  return call(base, url, { method, headers: h, ...(payload === undefined ? {} : { body: payload }) });
}

it("has a valid request for each operation of the generated table, and for no other", () => {
  const ids = operationTable.map((op) => op.operationId);
  expect(
    ids.filter((id) => !(id in validRequests)),
    "operations without a valid request in fuzz.test.ts's validRequests",
  ).toEqual([]);
  expect(Object.keys(validRequests).sort()).toEqual([...ids].sort());
});

it(`answers ${RUNS} generated requests without a 5xx, with documented error bodies`, async () => {
  const statuses = new Map<number, number>();
  const sentValid = new Set<string>();
  await fc.assert(
    fc.asyncProperty(request, async (generated: Generated) => {
      const answer = await send(generated);
      if (generated.operationId) {
        sentValid.add(generated.operationId);
      }
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      expect(answer.status).toBeLessThan(500);
      if (answer.method === "OPTIONS" || answer.method === "HEAD") {
        return;
      }
      const contentType = answer.headers.get("content-type") ?? "";
      if (answer.status >= 400) {
        if (contentType.startsWith("text/plain")) {
          expect(answer.status).toBe(401);
          expect(answer.body).toBe("Jwt is expired");
        } else {
          expect(contentType).toMatch(/^application\/json/);
          expect(schemaProblems("ApiError", answer.json)).toEqual([]);
        }
      }
      const operation = operationOf(answer.method, answer.path);
      const declared = operation && String(answer.status) in (operation.operation.responses as object);
      if (answer.status < 400 || declared) {
        expect(responseProblems(answer)).toEqual([]);
      }
    }),
    { numRuns: RUNS, seed: SEED },
  );
  // A valid request of every operation was sent at least once.
  expect([...sentValid].sort()).toEqual(operationTable.map((op) => op.operationId).sort());
  // The generator reached successes, client errors of several kinds and expired tokens alike.
  for (const status of [200, 400, 401, 404, 405, 413, 429]) {
    expect(
      statuses.get(status) ?? 0,
      `answers of status ${status} in ${JSON.stringify([...statuses])}`,
    ).toBeGreaterThan(0);
  }

  // And the sandbox still serves normal traffic afterwards.
  const accounts = await call(sandbox.mainUrl, "/voice/api/v1/admin/accounts", {
    headers: { Authorization: `Bearer ${tokens.valid}` },
  });
  expect(accounts.status).toBe(200);
  const refreshed = await call(
    sandbox.mainUrl,
    "/api/auth/token/refresh",
    form({ refresh_token: "unknown", rcTokenType: "Bearer" }),
  );
  expect(refreshed.status).toBe(401);
}, 120_000);
