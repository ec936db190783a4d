// The deprecated login host ({legacy_base_url}): direct login and permanent API tokens.

import type { Hono } from "hono";
import { authenticate } from "./auth.js";
import { apiError, ErrorCode } from "./errors.js";
import { createHost } from "./host.js";
import { type Answer, type Handler, serveOperations } from "./operations.js";
import { requiredQuery } from "./request.js";
import type { SandboxState } from "./state.js";

export function createLegacyHost(state: SandboxState): Hono {
  const app = createHost(state, "legacy");
  const now = () => state.now();

  const legacyLogin: Handler = async (c) => {
    const fields = {} as Record<"username" | "password" | "platformId", string>;
    for (const name of ["username", "password", "platformId"] as const) {
      const value = requiredQuery(c, name);
      if (!value.ok) {
        return apiError(c, 400, ErrorCode.validation, value.message, now());
      }
      fields[name] = value.value;
    }
    const login = state.options.legacyLogins.find(
      (candidate) =>
        candidate.username === fields.username &&
        candidate.password === fields.password &&
        candidate.platformId === fields.platformId,
    );
    const user = login
      ? state.tenants.user(login.userId)
      : state.tenants.legacyLogin(fields.username, fields.password, fields.platformId);
    if (!user) {
      return apiError(c, 401, ErrorCode.authentication, "Invalid username, password or platform", now());
    }
    state.count(user, "logins");
    const tokens = await state.issueTokens(user, null, { platformId: fields.platformId, legacy: true });
    return c.json(tokens satisfies Answer<"legacyLogin">);
  };

  const createApiToken: Handler = async (c) => {
    const user = await authenticate(c, state, "bearer");
    if (user instanceof Response) {
      return user;
    }
    return c.text(state.createApiToken(user.userId) satisfies Answer<"createApiToken", "text/plain">);
  };

  const listApiTokens: Handler = async (c) => {
    const user = await authenticate(c, state, "bearer-or-api-token");
    if (user instanceof Response) {
      return user;
    }
    return c.json(state.listApiTokens(user.userId) satisfies Answer<"listApiTokens">);
  };

  const deleteApiToken: Handler = async (c) => {
    const user = await authenticate(c, state, "bearer-or-api-token");
    if (user instanceof Response) {
      return user;
    }
    if (!state.deleteApiToken(user.userId, c.req.param("apiToken") ?? "")) {
      return apiError(c, 404, ErrorCode.tokenNotFound, "The API token does not exist", now());
    }
    return c.text("true" satisfies Answer<"deleteApiToken", "text/plain">);
  };

  serveOperations(app, state, "legacy", { legacyLogin, createApiToken, listApiTokens, deleteApiToken });
  return app;
}
