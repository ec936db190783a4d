import { inspect } from "node:util";
import { isPermanentApiToken } from "@engage-voice/client";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  apiTokens,
  CredentialRejectedError,
  EngageVoiceAuthError,
  LoginRejectedError,
  legacyLogin,
  UnexpectedResponseError,
} from "../src/index.js";
import { fakeClock, fakeServer, LEGACY_BASE, LEGACY_USER, recordingLogger } from "./fake-server.js";

function world(serverOptions: { deleteStatus?: 200 | 204 } = {}) {
  const clock = fakeClock();
  const server = fakeServer({ clock, ...serverOptions });
  const { lines, logger } = recordingLogger();
  const login = { baseUrl: LEGACY_BASE, ...LEGACY_USER, fetch: server.fetch, logger, clock };
  return { clock, server, lines, login };
}

beforeEach(() => {
  // The warning is once per process; each test starts as a fresh process would.
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("@engage-voice/auth.legacy-login-warned")];
});

describe("legacyLogin", () => {
  it("logs in with query values that arrive intact, and returns a token set", async () => {
    const { server, login, clock } = world();
    const onTokens = vi.fn();
    const tokens = await legacyLogin({ ...login, onTokens });
    expect(tokens.accessToken).toMatch(/^ey/);
    expect([...server.secrets]).toContain(tokens.refreshToken);
    // Whole-second claims: the token may be up to a second older than they say.
    expect(tokens.expiresAt).toBe(clock.now() + 299_000);
    expect(onTokens).toHaveBeenCalledWith(tokens);
    const sent = new URL((server.requests[0] as Request).url);
    expect(sent.searchParams.get("password")).toBe(LEGACY_USER.password);
    expect(sent.search).not.toContain("+battery"); // a raw + would read as a space
    expect(sent.search).toContain("%2B");
    expect((server.requests[0] as Request).method).toBe("POST");
  });

  it("warns once per process that the flow is deprecated", async () => {
    const { login, lines } = world();
    await legacyLogin(login);
    await legacyLogin(login);
    expect(lines.filter((l) => l.startsWith("warn legacyLogin() uses the deprecated"))).toHaveLength(1);
  });

  it("warns on the console when no logger is given", async () => {
    const { login } = world();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { logger: _unused, ...withoutLogger } = login;
    await legacyLogin(withoutLogger);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it("returns a token set without the password (the heap check is in legacy-memory.test.ts)", async () => {
    const { login } = world();
    const tokens = await legacyLogin(login);
    const shown = [JSON.stringify(tokens), inspect(tokens, { depth: 5 }), JSON.stringify({ ...tokens })];
    for (const text of shown) {
      expect(text).not.toContain(LEGACY_USER.password);
    }
    expect(Object.values({ ...tokens }).includes(LEGACY_USER.password)).toBe(false);
  });

  it("rejects wrong credentials with a typed error", async () => {
    const { login } = world();
    const error = await legacyLogin({ ...login, password: "wrong" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoginRejectedError);
    expect(error).toMatchObject({ code: "login_rejected", status: 401 });
  });

  it("sent to the contact-center host, names the host it belongs on and the flow to use there", async () => {
    const { login } = world();
    const notFound = async () => new Response(JSON.stringify({ errorCode: "nope" }), { status: 404 });
    const error = await legacyLogin({
      ...login,
      baseUrl: "https://engage.example.test",
      fetch: notFound,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toMatch(
      /answered 404.*has no direct login: it lives on the deprecated host.*createTokenManager\(\)/,
    );
  });

  it("names a missing field without quoting any value", async () => {
    const { login } = world();
    await expect(legacyLogin({ ...login, platformId: "" })).rejects.toThrow(/platformId must be a non-empty/);
    await expect(legacyLogin({ ...login, password: undefined as unknown as string })).rejects.toMatchObject({
      code: "invalid_options",
    });
  });
});

describe("apiTokens", () => {
  async function bearerSession() {
    const w = world();
    const { accessToken } = await legacyLogin(w.login);
    return { ...w, accessToken };
  }

  it("creates, lists and deletes with a bearer access token", async () => {
    const { server, accessToken } = await bearerSession();
    const tokens = apiTokens({ baseUrl: LEGACY_BASE, auth: { accessToken }, fetch: server.fetch });
    const created = await tokens.create();
    expect(isPermanentApiToken(created)).toBe(true);
    const second = await tokens.create();
    expect(second).not.toBe(created); // every call makes a new one
    expect(await tokens.list()).toEqual([created, second]);
    await tokens.delete(created);
    expect(await tokens.list()).toEqual([second]);
    const sent = server.requests.at(-1) as Request;
    expect(sent.headers.get("Authorization")).toBe(`Bearer ${accessToken}`);
    expect(sent.headers.has("X-Auth-Token")).toBe(false);
  });

  it("works with an API token as X-Auth-Token, which may delete itself", async () => {
    const { server, accessToken } = await bearerSession();
    const permanent = await apiTokens({
      baseUrl: LEGACY_BASE,
      auth: { accessToken },
      fetch: server.fetch,
    }).create();
    const tokens = apiTokens({ baseUrl: LEGACY_BASE, auth: { apiToken: permanent }, fetch: server.fetch });
    expect(await tokens.list()).toEqual([permanent]);
    const sent = server.requests.at(-1) as Request;
    expect(sent.headers.get("X-Auth-Token")).toBe(permanent);
    expect(sent.headers.has("Authorization")).toBe(false);
    await tokens.delete(permanent);
    // The deleted token is refused: its own typed error, which says why.
    await expect(tokens.list()).rejects.toMatchObject({ code: "credential_rejected", status: 401 });
    await expect(tokens.list()).rejects.toThrow(/unknown or was deleted/);
  });

  // The document declares 401 and 403 on listing and deleting: each is the credential's own typed
  // error, whichever credential was sent.
  it.each([
    ["list", 401],
    ["list", 403],
    ["delete", 401],
    ["delete", 403],
  ] as const)("a %s answered %i with an API token is a CredentialRejectedError", async (call, status) => {
    const { server, accessToken } = await bearerSession();
    const permanent = await apiTokens({
      baseUrl: LEGACY_BASE,
      auth: { accessToken },
      fetch: server.fetch,
    }).create();
    const tokens = apiTokens({ baseUrl: LEGACY_BASE, auth: { apiToken: permanent }, fetch: server.fetch });
    server.fail(call === "list" ? "listTokens" : "deleteToken", { status });
    const error = await (call === "list" ? tokens.list() : tokens.delete(permanent)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CredentialRejectedError);
    expect(error).toMatchObject({ code: "credential_rejected", status });
    expect((error as Error).message).toMatch(/unknown or was deleted/);
    expect(inspect(error)).not.toContain(permanent);
  });

  it.each([
    ["list", 401],
    ["list", 403],
    ["delete", 401],
    ["delete", 403],
  ] as const)(
    "a %s answered %i with a bearer access token is a CredentialRejectedError",
    async (call, status) => {
      const { server, accessToken } = await bearerSession();
      const tokens = apiTokens({ baseUrl: LEGACY_BASE, auth: { accessToken }, fetch: server.fetch });
      const permanent = await tokens.create();
      server.fail(call === "list" ? "listTokens" : "deleteToken", { status });
      const error = await (call === "list" ? tokens.list() : tokens.delete(permanent)).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CredentialRejectedError);
      expect(error).toMatchObject({ code: "credential_rejected", status });
      expect((error as Error).message).toMatch(/log in again/);
    },
  );

  it("a bearer access token that expired: list and delete are refused as CredentialRejectedError", async () => {
    const { server, accessToken } = await bearerSession();
    const tokens = apiTokens({ baseUrl: LEGACY_BASE, auth: { accessToken }, fetch: server.fetch });
    const permanent = await tokens.create();
    server.expireAccessTokens();
    for (const call of [() => tokens.list(), () => tokens.delete(permanent)]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CredentialRejectedError);
      expect(error).toMatchObject({ code: "credential_rejected", status: 401 });
      expect((error as Error).message).toMatch(/expired or is unknown: log in again/);
      expect(inspect(error)).not.toContain(accessToken);
    }
    // Refused, not deleted: the sandbox still takes it.
    const byItself = apiTokens({ baseUrl: LEGACY_BASE, auth: { apiToken: permanent }, fetch: server.fetch });
    expect(await byItself.list()).toEqual([permanent]);
  });

  it("accepts a delete answered 204 without a body", async () => {
    const w = world({ deleteStatus: 204 });
    const { accessToken } = await legacyLogin(w.login);
    const tokens = apiTokens({ baseUrl: LEGACY_BASE, auth: { accessToken }, fetch: w.server.fetch });
    await expect(tokens.delete(await tokens.create())).resolves.toBeUndefined();
  });

  it("turns answers the specification does not allow into typed errors", async () => {
    const { server, accessToken } = await bearerSession();
    const tokens = apiTokens({ baseUrl: LEGACY_BASE, auth: { accessToken }, fetch: server.fetch });
    server.fail("listTokens", {
      status: 200,
      body: '{"tokens":[]}',
      headers: { "Content-Type": "application/json" },
    });
    server.fail("createToken", { status: 200, body: "", headers: { "Content-Type": "text/plain" } });
    server.fail("deleteToken", { status: 200, body: "false", headers: { "Content-Type": "text/plain" } });
    await expect(tokens.list()).rejects.toBeInstanceOf(UnexpectedResponseError);
    await expect(tokens.create()).rejects.toBeInstanceOf(UnexpectedResponseError);
    await expect(tokens.delete("aws80:x")).rejects.toBeInstanceOf(UnexpectedResponseError);
    await expect(tokens.delete("aws80:unknown")).rejects.toMatchObject({ status: 404 });
    await expect(tokens.delete("")).rejects.toMatchObject({ code: "invalid_options" });
  });

  it("needs a credential", () => {
    expect(() => apiTokens({ auth: { accessToken: "" } })).toThrow(EngageVoiceAuthError);
    expect(() => apiTokens({ auth: { apiToken: " " } })).toThrow(/auth.apiToken/);
    expect(() => apiTokens({ auth: undefined as never })).toThrow(/auth.accessToken/);
  });
});
