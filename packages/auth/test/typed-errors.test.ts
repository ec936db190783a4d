// The run-time side of the typed errors; their types are in typed-errors.test-d.ts.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type ApiTokens,
  type ApiTokensByApiToken,
  type AuthErrorCode,
  apiTokens,
  EngageVoiceAuthError,
  type ExchangeRejectedError,
  type RateLimitedError,
} from "../src/index.js";
import { LEGACY_BASE, setup } from "./fake-server.js";

describe("error codes are string literals", () => {
  it("a misspelt code does not compile", async () => {
    const error = await setup({ rcAccessToken: "rc-wrong" })
      .auth.getAccessToken()
      .catch((e: unknown) => e);
    if (!(error instanceof EngageVoiceAuthError)) {
      throw new Error("expected a typed error");
    }
    expectTypeOf(error.code).toEqualTypeOf<AuthErrorCode>();
    // @ts-expect-error: "exchange_rejectd" is not a code
    expect(error.code === "exchange_rejectd").toBe(false);
    expect(error.code === "exchange_rejected").toBe(true);
  });

  it("each subclass narrows its code to one literal", () => {
    expectTypeOf<ExchangeRejectedError["code"]>().toEqualTypeOf<"exchange_rejected">();
    expectTypeOf<RateLimitedError["code"]>().toEqualTypeOf<"rate_limited">();
  });
});

describe("permanent-token helpers are typed by what each call accepts", () => {
  it("creating a token with an API token does not compile, and fails as bearer_required at run time", async () => {
    const s = setup();
    const byApiToken = apiTokens({
      baseUrl: LEGACY_BASE,
      auth: { apiToken: "aws80:x" },
      fetch: s.server.fetch,
    });
    expectTypeOf(byApiToken).toEqualTypeOf<ApiTokensByApiToken>();
    // @ts-expect-error: creating needs a bearer access token
    const created: Promise<string> = byApiToken.create();
    await expect(created).rejects.toMatchObject({ code: "bearer_required" });
    await expect(created).rejects.toThrow(/needs a bearer access token/);
    expect(s.server.requests).toHaveLength(0);
    const byBearer = apiTokens({
      baseUrl: LEGACY_BASE,
      auth: { accessToken: "a.b.c" },
      fetch: s.server.fetch,
    });
    expectTypeOf(byBearer).toEqualTypeOf<ApiTokens>();
  });
});
