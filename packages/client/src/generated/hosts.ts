// Generated from spec/dist/openapi.json by packages/client/scripts/generate.mjs. Do not edit.

/** Paths served by the contact-center host, `{base_url}`. */
export type MainPath = "/api/auth/login/rc/accesstoken" | "/api/auth/token/refresh" | "/voice/api/v1/admin/accounts" | "/voice/api/v1/admin/users";

/** Paths served by the deprecated login host, `{legacy_base_url}`. */
export type LegacyPath = "/api/auth/login/admin" | "/voice/api/v1/admin/token" | "/voice/api/v1/admin/token/{apiToken}";

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
