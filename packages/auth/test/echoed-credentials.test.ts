// A server may echo what it was sent as its `errorCode`. A password or user name shaped like the
// platform's dotted lower-case codes would pass the shape check: only the credential list keeps it
// out of the error.
import { inspect } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import { apiTokens, LoginRejectedError, legacyLogin } from "../src/index.js";
import { fakeClock, fakeServer, LEGACY_BASE, LEGACY_USER, recordingLogger } from "./fake-server.js";

const echo = (errorCode: string, status = 401) => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ errorCode, generalMessage: "Rejected" }),
});

/** Everything an error shows: message, stack, cause, and how it prints. */
const shown = (error: unknown) =>
  [
    String(error),
    (error as Error | undefined)?.stack,
    inspect(error, { depth: 5 }),
    JSON.stringify(error),
  ].join("\n");

beforeEach(() => {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("@engage-voice/auth.legacy-login-warned")];
});

describe("legacyLogin: a credential echoed as errorCode is never quoted", () => {
  it.each([
    ["password", { password: "hunter.two" }, "hunter.two"],
    ["username", { username: "lee.legacy" }, "lee.legacy"],
  ])("the %s", async (_, credentials, echoed) => {
    const clock = fakeClock();
    const server = fakeServer({ clock });
    const { lines, logger } = recordingLogger();
    server.fail("login", echo(echoed));
    const error = await legacyLogin({
      baseUrl: LEGACY_BASE,
      ...LEGACY_USER,
      ...credentials,
      fetch: server.fetch,
      logger,
      clock,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoginRejectedError);
    expect(error).toMatchObject({ code: "login_rejected", status: 401 });
    expect(shown(error)).not.toContain(echoed);
    expect(shown((error as Error).cause)).not.toContain(echoed);
    expect(lines.join("\n")).not.toContain(echoed);
  });

  it("quotes a code that is none of them", async () => {
    const clock = fakeClock();
    const server = fakeServer({ clock });
    server.fail("login", echo("access.denied.exception"));
    const error = await legacyLogin({
      baseUrl: LEGACY_BASE,
      ...LEGACY_USER,
      fetch: server.fetch,
      clock,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toContain("(access.denied.exception)");
  });
});

describe("apiTokens: a credential echoed as errorCode is never quoted", () => {
  it.each([401, 403, 500])("the API token, on a %i", async (status) => {
    const clock = fakeClock();
    const server = fakeServer({ clock });
    const apiToken = "team.token.one";
    server.fail("listTokens", echo(apiToken, status));
    // One answer, as it came: a 500 would otherwise be tried again.
    const error = await apiTokens({
      baseUrl: LEGACY_BASE,
      auth: { apiToken },
      fetch: server.fetch,
      clock,
      maxRetries: 0,
    })
      .list()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status });
    expect(shown(error)).not.toContain(apiToken);
  });

  it("the bearer access token", async () => {
    const clock = fakeClock();
    const server = fakeServer({ clock });
    const accessToken = "opaque.access.token";
    server.fail("listTokens", echo(accessToken));
    const error = await apiTokens({ baseUrl: LEGACY_BASE, auth: { accessToken }, fetch: server.fetch, clock })
      .list()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "credential_rejected", status: 401 });
    expect(shown(error)).not.toContain(accessToken);
  });

  it("the API token being deleted", async () => {
    const clock = fakeClock();
    const server = fakeServer({ clock });
    const { accessToken } = await legacyLogin({
      baseUrl: LEGACY_BASE,
      ...LEGACY_USER,
      fetch: server.fetch,
      clock,
      logger: recordingLogger().logger,
    });
    const target = "team.key:0f1e2d3c";
    server.fail("deleteToken", echo("team.key", 404));
    const error = await apiTokens({ baseUrl: LEGACY_BASE, auth: { accessToken }, fetch: server.fetch, clock })
      .delete(target)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404 });
    expect(shown(error)).not.toContain("team.key");
  });
});
