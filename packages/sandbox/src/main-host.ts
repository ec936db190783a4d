// The contact-center host ({base_url}): token exchange, refresh, accounts and users.

import type { Context, Hono } from "hono";
import { authenticate } from "./auth.js";
import { apiError, ErrorCode } from "./errors.js";
import { createHost, tooLarge } from "./host.js";
import { type Answer, type Handler, serveOperations } from "./operations.js";
import { retryAfterSeconds } from "./rate-limit.js";
import { booleanQuery, readForm } from "./request.js";
import { hasRole, ROLE_RULES, usersFlat, usersTree } from "./seed.js";
import type { SandboxState } from "./state.js";

const REFRESH_REJECTED = {
  unknown: "The refresh token is invalid",
  spent:
    "The refresh token was already used, so its session is revoked: exchange a parent-platform token again",
  revoked: "The refresh token's session was revoked: exchange a parent-platform token again",
} as const;

/** A lost answer: the work is done, but the client only sees its connection break. */
function dropped(c: Context, state: SandboxState): Response {
  if (state.options.dropConnection) {
    state.options.dropConnection(c.env);
    return c.body(null, 500);
  }
  const body = new ReadableStream({
    start: (controller) => controller.error(new Error("connection dropped by the sandbox")),
  });
  return new Response(body, { status: 200, headers: { "Content-Type": "application/json" } });
}

export function createMainHost(state: SandboxState): Hono {
  const app = createHost(state, "main");
  const now = () => state.now();
  const invalid = (c: Context, message: string) => apiError(c, 400, ErrorCode.validation, message, now());
  const rejectForm = (c: Context, problem: { message: string; status?: 413 }) =>
    problem.status === 413 ? tooLarge(c, state) : invalid(c, problem.message);

  const exchangeAccessToken: Handler = async (c) => {
    const includeRefresh = booleanQuery(c, "includeRefresh");
    if (!includeRefresh.ok) {
      return invalid(c, includeRefresh.message);
    }
    const form = await readForm(c, ["rcAccessToken", "rcTokenType"], state.options.maxBodyBytes);
    if (!form.ok) {
      return rejectForm(c, form);
    }
    if (form.value.rcTokenType !== "Bearer") {
      return invalid(c, "Form field rcTokenType must be Bearer");
    }
    const { parentTokens } = state.options;
    const token = form.value.rcAccessToken;
    const user = Object.hasOwn(parentTokens, token)
      ? state.tenants.user(parentTokens[token] as number)
      : state.tenants.parentTokenUser(token);
    // Looked up first, since the window to take a place in may be the token's tenant's.
    const wait = state.exchangeWindows.take(state.exchangeKey(user), now());
    if (wait !== undefined) {
      if (user) {
        state.count(user, "rateLimitedExchanges");
      }
      return apiError(c, 429, ErrorCode.rateLimit, "Too many token exchanges, try again later", now(), {
        "Retry-After": retryAfterSeconds(wait),
      });
    }
    if (!user) {
      return apiError(
        c,
        401,
        ErrorCode.authentication,
        "The RingCentral access token is invalid or expired",
        now(),
      );
    }
    state.count(user, "exchanges");
    const tokens = await state.issueTokens(user, includeRefresh.value === true ? null : undefined);
    return c.json(tokens satisfies Answer<"exchangeAccessToken">);
  };

  const refreshAccessToken: Handler = async (c) => {
    const form = await readForm(c, ["refresh_token", "rcTokenType"], state.options.maxBodyBytes);
    if (!form.ok) {
      return rejectForm(c, form);
    }
    if (form.value.rcTokenType !== "Bearer") {
      return invalid(c, "Form field rcTokenType must be Bearer");
    }
    const result = await state.rotate(form.value.refresh_token);
    if (!result.ok) {
      return apiError(c, 401, ErrorCode.authentication, REFRESH_REJECTED[result.reason], now());
    }
    if (state.faults.take(["drop-after-refresh"], c.req.method, c.req.path)) {
      return dropped(c, state);
    }
    return c.json(result.tokens satisfies Answer<"refreshAccessToken">);
  };

  const listAccounts: Handler = async (c) => {
    const user = await authenticate(c, state, "bearer");
    if (user instanceof Response) {
      return user;
    }
    if (hasRole(user.roles, "noAccounts")) {
      return apiError(
        c,
        403,
        ErrorCode.accessDenied,
        "You do not have permission to access this resource",
        now(),
      );
    }
    const seesAll = hasRole(user.roles, "seeEveryAccount");
    const visible = state.tenants
      .tenantOf(user)
      .accounts.filter((account) => seesAll || account.accountId === user.accountId);
    return c.json(visible satisfies Answer<"listAccounts">);
  };

  const listUsers: Handler = async (c) => {
    const user = await authenticate(c, state, "bearer");
    if (user instanceof Response) {
      return user;
    }
    const activeOnly = booleanQuery(c, "activeOnly");
    if (!activeOnly.ok) {
      return invalid(c, activeOnly.message);
    }
    const flatten = booleanQuery(c, "flatten");
    if (!flatten.ok) {
      return invalid(c, flatten.message);
    }
    const wait = state.usersWindow.take(now());
    if (wait !== undefined) {
      return apiError(c, 429, ErrorCode.rateLimit, "Too many requests, try again later", now(), {
        "Retry-After": retryAfterSeconds(wait),
      });
    }
    if (!hasRole(user.roles, "listUsers")) {
      return apiError(
        c,
        403,
        ErrorCode.accessDenied,
        `Listing users needs the ${ROLE_RULES.listUsers.join(" or ")} role`,
        now(),
      );
    }
    const active = activeOnly.value === true;
    const tenant = state.tenants.tenantOf(user);
    const users = flatten.value === true ? usersFlat(tenant, active) : usersTree(tenant, active);
    return c.json(users satisfies Answer<"listUsers">);
  };

  serveOperations(app, state, "main", { exchangeAccessToken, refreshAccessToken, listAccounts, listUsers });
  return app;
}
