// Errors that name the fix, for the mistakes users make most: the deprecated host's calls sent to the
// contact-center host, a host that does not answer (a forgotten baseUrl reaching production), a
// refused direct login, and a script that exchanges on every run until it is rate limited. The hosts
// are stubs: each answer is the one under test.
import { defaultBaseUrls } from "@engage-voice/client/internal";
import { describe, expect, it } from "vitest";
import {
  apiTokens,
  createTokenManager,
  type EngageVoiceAuthError,
  LoginRejectedError,
  legacyLogin,
  NetworkError,
  RateLimitedError,
  UnexpectedResponseError,
} from "../src/index.js";
import { fakeClock } from "./fake-server.js";
import { STUB } from "./stub-exchange.js";

const quiet = { logger: {}, clock: fakeClock() };
const answer =
  (status: number, headers: Record<string, string> = {}) =>
  async () =>
    new Response(JSON.stringify({ errorCode: "x.y", generalMessage: "no" }), {
      status,
      headers: { "Content-Type": "application/json", ...headers },
    });
const noAnswer = async () => {
  throw new TypeError("fetch failed");
};

async function thrown(run: () => Promise<unknown>): Promise<EngageVoiceAuthError> {
  try {
    await run();
  } catch (error) {
    return error as EngageVoiceAuthError;
  }
  throw new Error("nothing was thrown");
}

describe("errors that name the fix", () => {
  it("apiTokens() on the contact-center host: the deprecated host's operation, and its base URL", async () => {
    const tokens = apiTokens({
      ...quiet,
      baseUrl: STUB.baseUrl,
      auth: { accessToken: STUB.accessToken },
      fetch: answer(404),
      maxRetries: 0,
    });
    const error = await thrown(() => tokens.list());
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toMatch(/answered 404/);
    expect(error.message).toMatch(/deprecated/);
    expect(error.message).toContain(defaultBaseUrls.legacy);
  });

  it.each([
    ["a baseUrl given", STUB.baseUrl],
    ["no baseUrl: the production host", undefined],
  ])("a token exchange without an answer names the host and what to check: %s", async (_, baseUrl) => {
    const auth = createTokenManager({
      ...quiet,
      ...(baseUrl ? { baseUrl } : {}),
      rcAccessToken: STUB.parentToken,
      fetch: noAnswer,
      retries: 0,
    });
    const error = await thrown(() => auth.getAccessToken());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/^The token exchange got no answer/);
    expect(error.message).toContain(baseUrl ?? defaultBaseUrls.main);
    expect(error.message).toMatch(/baseUrl/);
    expect(error.message).toMatch(/network/);
  });

  it("a refused direct login says which fields to check", async () => {
    const login = { username: "ada@example.test", password: "wrong-password", platformId: "p-1" };
    const error = await thrown(() =>
      legacyLogin({ ...quiet, ...login, baseUrl: STUB.baseUrl, fetch: answer(401) }),
    );
    expect(error).toBeInstanceOf(LoginRejectedError);
    expect(error.message).toMatch(/refused with 401/);
    for (const field of ["username", "password", "platformId"]) {
      expect(error.message).toContain(field);
    }
    expect(error.message).not.toContain(login.password);
  });

  it("a rate-limited exchange points to fileStore, which keeps the session across runs", async () => {
    const auth = createTokenManager({
      ...quiet,
      baseUrl: STUB.baseUrl,
      rcAccessToken: STUB.parentToken,
      fetch: answer(429, { "Retry-After": "30" }),
    });
    const error = await thrown(() => auth.getAccessToken());
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.message).toContain("fileStore");
    expect(error.message).toContain("@engage-voice/auth/node");
    expect(error.message).toMatch(/retry in 30 s$/);
  });
});
