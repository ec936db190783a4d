// Type-level promises of the errors and the permanent-token helpers: checked by the tsc that the test
// script runs first (tsconfig.json includes test/), so a type that loosens fails the run.
import { describe, expectTypeOf, it } from "vitest";
import {
  type ApiTokens,
  type ApiTokensByApiToken,
  type AuthErrorCode,
  apiTokens,
  EngageVoiceAuthError,
  type ExchangeRejectedError,
  type RateLimitedError,
} from "../src/index.js";

describe("types", () => {
  it("a code is a literal union, so a misspelt comparison does not compile", () => {
    const error = new EngageVoiceAuthError("store_failed", "m");
    expectTypeOf(error.code).toEqualTypeOf<AuthErrorCode>();
    // @ts-expect-error: "exchange_rejectd" is not a code
    void (error.code === "exchange_rejectd");
    expectTypeOf<ExchangeRejectedError["code"]>().toEqualTypeOf<"exchange_rejected">();
    expectTypeOf<RateLimitedError["code"]>().toEqualTypeOf<"rate_limited">();
  });

  it("an API token cannot create API tokens", () => {
    const byApiToken = apiTokens({ auth: { apiToken: "aws80:x" } });
    expectTypeOf(byApiToken).toEqualTypeOf<ApiTokensByApiToken>();
    // @ts-expect-error: creating needs a bearer access token
    void byApiToken.create();
    expectTypeOf(apiTokens({ auth: { accessToken: "a.b.c" } })).toEqualTypeOf<ApiTokens>();
  });
});
