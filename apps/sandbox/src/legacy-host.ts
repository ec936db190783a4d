// The deprecated login host ({legacy_base_url}): direct login and permanent API tokens.

import type { Hono } from "hono";
import { authenticate } from "./auth.js";
import { apiError, ErrorCode } from "./errors.js";
import { createHost, methodNotAllowed, otherHost } from "./host.js";
import { LEGACY_PATHS, MAIN_PATHS } from "./paths.js";
import { requiredQuery } from "./request.js";
import { findUser } from "./seed.js";
import type { SandboxState } from "./state.js";

export function createLegacyHost(state: SandboxState): Hono {
  const app = createHost(state, "legacy");
  const now = () => state.now();

  app.post(LEGACY_PATHS.login, async (c) => {
    const fields = {} as Record<"username" | "password" | "platformId", string>;
    for (const name of ["username", "password", "platformId"] as const) {
      const value = requiredQuery(c, name);
      if (!value.ok) return apiError(c, 400, ErrorCode.validation, value.message, now());
      fields[name] = value.value;
    }
    const login = state.options.legacyLogins.find(
      (candidate) =>
        candidate.username === fields.username &&
        candidate.password === fields.password &&
        candidate.platformId === fields.platformId,
    );
    const user = login && findUser(login.userId);
    if (!user) {
      return apiError(c, 401, ErrorCode.authentication, "Invalid username, password or platform", now());
    }
    return c.json(await state.issueTokens(user, null, { platformId: fields.platformId, legacy: true }));
  });

  app.post(LEGACY_PATHS.tokens, async (c) => {
    const user = await authenticate(c, state, "bearer");
    if (user instanceof Response) return user;
    return c.text(state.createApiToken(user.userId));
  });

  app.get(LEGACY_PATHS.tokens, async (c) => {
    const user = await authenticate(c, state, "bearer-or-api-token");
    if (user instanceof Response) return user;
    return c.json(state.listApiTokens(user.userId));
  });

  app.delete(LEGACY_PATHS.token, async (c) => {
    const user = await authenticate(c, state, "bearer-or-api-token");
    if (user instanceof Response) return user;
    if (!state.deleteApiToken(user.userId, c.req.param("apiToken"))) {
      return apiError(c, 404, ErrorCode.tokenNotFound, "The API token does not exist", now());
    }
    return c.text("true");
  });

  app.all(LEGACY_PATHS.login, (c) => methodNotAllowed(c, state, "POST"));
  app.all(LEGACY_PATHS.tokens, (c) => methodNotAllowed(c, state, "GET, POST"));
  app.all(LEGACY_PATHS.token, (c) => methodNotAllowed(c, state, "DELETE"));
  for (const path of Object.values(MAIN_PATHS)) app.all(path, (c) => otherHost(c, state, "main"));
  return app;
}
