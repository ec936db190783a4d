import type { Context } from "hono";
import { apiError, ErrorCode, JWT_EXPIRED } from "./errors.js";
import type { SeedUser } from "./seed.js";
import type { SandboxState } from "./state.js";

/** Which credentials an operation takes, as its `security` in the specification says. */
export type Accepts = "bearer" | "bearer-or-api-token";

const BEARER = /^Bearer +([^\s]+) *$/i;

function unauthorized(c: Context, state: SandboxState, message: string): Response {
  return apiError(c, 401, ErrorCode.authentication, message, state.now());
}

async function userOfJwt(c: Context, state: SandboxState, token: string): Promise<SeedUser | Response> {
  const result = await state.jwt.verify(token, state.now());
  if (!result.ok && result.reason === "expired") {
    return c.text(JWT_EXPIRED, 401);
  }
  if (result.ok && state.isExpiredByControl(result.claims.jti)) {
    return c.text(JWT_EXPIRED, 401);
  }
  const user = result.ok ? state.tenants.user(Number(result.claims.sub)) : undefined;
  return user ?? unauthorized(c, state, "The access token is invalid");
}

/**
 * The caller's user, or the 401 to answer: `Jwt is expired` as text for an expired access token
 * (as specified), a JSON ApiError for missing, malformed or unknown credentials.
 * `Authorization` wins over `X-Auth-Token` when both are sent.
 */
export async function authenticate(
  c: Context,
  state: SandboxState,
  accepts: Accepts,
): Promise<SeedUser | Response> {
  const authorization = c.req.header("authorization");
  const apiToken = c.req.header("x-auth-token");
  if (authorization !== undefined) {
    const token = BEARER.exec(authorization)?.[1];
    if (!token) {
      return unauthorized(c, state, "The Authorization header must be Bearer <access token>");
    }
    return userOfJwt(c, state, token);
  }
  if (apiToken !== undefined && accepts === "bearer-or-api-token") {
    const owner = state.apiTokenOwner(apiToken);
    if (owner !== undefined) {
      return state.tenants.user(owner) ?? unauthorized(c, state, "The API token is invalid");
    }
    // The X-Auth-Token value may also be a fresh access token from a login.
    if (apiToken.split(".").length === 3) {
      return userOfJwt(c, state, apiToken);
    }
    return unauthorized(c, state, "The API token is unknown or was deleted");
  }
  if (apiToken !== undefined) {
    return unauthorized(
      c,
      state,
      "This operation takes Authorization: Bearer <access token>, not X-Auth-Token",
    );
  }
  return unauthorized(c, state, "Full authentication is required to access this resource");
}
