// Generated from spec/dist/openapi.json by packages/client/scripts/generate.mjs. Do not edit.

/** Paths served by the contact-center host, `{base_url}`. */
export type MainPath = "/api/auth/login/rc/accesstoken" | "/api/auth/token/refresh" | "/voice/api/v1/admin/accounts" | "/voice/api/v1/admin/users";

/** Paths served by the deprecated login host, `{legacy_base_url}`. */
export type LegacyPath = "/api/auth/login/admin" | "/voice/api/v1/admin/token" | "/voice/api/v1/admin/token/{apiToken}";

/** The operations a path item can hold (OpenAPI 3.1), as the document writes them: the one list of HTTP methods. */
export const httpMethods = ["get","put","post","delete","options","head","patch","trace"] as const;

/** A method of {@link httpMethods}. */
export type HttpMethod = (typeof httpMethods)[number];

/** Default server of each host, as the document gives it. */
export const defaultBaseUrls = {
  "main": "https://engage.ringcentral.com",
  "legacy": "https://portal.vacd.biz"
} as const;

/** Operations whose request body is `application/x-www-form-urlencoded`, by path. */
export const formOperations: Readonly<Record<string, readonly string[]>> = {
  "/api/auth/login/rc/accesstoken": [
    "post"
  ],
  "/api/auth/token/refresh": [
    "post"
  ]
};

/**
 * Every operation of the document, in its order: the one list of operations. The sandbox's routes,
 * the tests' fakes and the samples derive from it, so an operation added to the document reaches them.
 */
export const operationTable = [
  {
    "operationId": "exchangeAccessToken",
    "method": "post",
    "path": "/api/auth/login/rc/accesstoken",
    "host": "main"
  },
  {
    "operationId": "refreshAccessToken",
    "method": "post",
    "path": "/api/auth/token/refresh",
    "host": "main"
  },
  {
    "operationId": "listAccounts",
    "method": "get",
    "path": "/voice/api/v1/admin/accounts",
    "host": "main"
  },
  {
    "operationId": "listUsers",
    "method": "get",
    "path": "/voice/api/v1/admin/users",
    "host": "main"
  },
  {
    "operationId": "legacyLogin",
    "method": "post",
    "path": "/api/auth/login/admin",
    "host": "legacy"
  },
  {
    "operationId": "listApiTokens",
    "method": "get",
    "path": "/voice/api/v1/admin/token",
    "host": "legacy"
  },
  {
    "operationId": "createApiToken",
    "method": "post",
    "path": "/voice/api/v1/admin/token",
    "host": "legacy"
  },
  {
    "operationId": "deleteApiToken",
    "method": "delete",
    "path": "/voice/api/v1/admin/token/{apiToken}",
    "host": "legacy"
  }
] as const;

/** The `operationId` of each operation of the document. */
export type OperationId = (typeof operationTable)[number]["operationId"];
