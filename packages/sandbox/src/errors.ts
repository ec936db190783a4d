import { type ApiError, pathTemplateOf } from "@engage-voice/client";
import type { Context } from "hono";

/** Sent where the specification says so: the only non-JSON error body of the API. */
export const JWT_EXPIRED = "Jwt is expired";

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 413 | 429 | 500 | 502 | 503 | 504;

/** A path segment that may be a credential: a JWT, an API token, a UUID-like or long opaque value. */
const SECRET_LIKE = /^(?:[\w-]+\.[\w-]+\.[\w-]*|[^/]*:[^/]*|[\w%-]{20,})$/;

/**
 * The path part of `requestUri`. The permanent token a DELETE names is replaced by the template, and
 * any other segment that could be a token (a mistyped path with an API token in it) by `{redacted}`,
 * so that a token never appears in an error body; query strings are left out for the same reason
 * (the deprecated login carries a password there).
 */
export function requestPath(c: Context): string {
  const path = c.req.path;
  const template = pathTemplateOf(path);
  if (template) {
    return template;
  }
  const redacted = path
    .split("/")
    .map((segment) => (SECRET_LIKE.test(segment) ? "{redacted}" : segment))
    .join("/");
  return redacted.length > 200 ? `${redacted.slice(0, 200)}…` : redacted;
}

/** The platform's JSON error body (`ApiError` of the specification). */
export function apiError(
  c: Context,
  status: ErrorStatus,
  errorCode: string,
  generalMessage: string,
  now: number,
  headers?: Record<string, string>,
): Response {
  const body = {
    errorCode,
    generalMessage,
    details: "",
    requestUri: `${requestPath(c)} - ${c.req.method}`,
    timestamp: now,
  } satisfies ApiError;
  return c.json(body, status, headers);
}

export const ErrorCode = {
  validation: "request.validation.exception",
  authentication: "authentication.exception",
  accessDenied: "access.denied.exception",
  rateLimit: "rate.limit.exception",
  notFound: "resource.not.found.exception",
  tokenNotFound: "token.not.found.exception",
  methodNotAllowed: "method.not.allowed.exception",
  payloadTooLarge: "payload.too.large.exception",
  injectedFault: "sandbox.injected.fault",
  internal: "internal.server.exception",
} as const;
