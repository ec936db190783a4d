// `create` on an API token's helper does not compile, and the compiler's message says why: the
// method's `this` type is the reason, which TypeScript quotes in the error. Checked by the tsc that
// the test script runs first.
import { describe, expectTypeOf, it } from "vitest";
import { type ApiTokens, type ApiTokensByApiToken, apiTokens } from "../src/index.js";

/** What the compiler quotes when `create` is called on an API token's helper. */
type Reason = ThisParameterType<ApiTokensByApiToken["create"]>;

describe("apiTokens({ auth: { apiToken } }).create()", () => {
  it("is a type error whose message names the bearer access token it needs", () => {
    const byApiToken = apiTokens({ auth: { apiToken: "aws80:x" } });
    // @ts-expect-error: The 'this' context … is not assignable to method's 'this' of type 'create needs a bearer access token: …'
    void byApiToken.create();
    // A readable reason, not `never` (whose error says only that the call has no signatures).
    type Readable = [Reason] extends [never]
      ? false
      : Reason extends `create needs a bearer access token: ${string}`
        ? true
        : false;
    expectTypeOf<Readable>().toEqualTypeOf<true>();
  });

  it("leaves list and delete as they are, and create with a bearer access token", () => {
    const byApiToken = apiTokens({ auth: { apiToken: "aws80:x" } });
    expectTypeOf(byApiToken.list).toEqualTypeOf<ApiTokens["list"]>();
    expectTypeOf(byApiToken.delete).toEqualTypeOf<ApiTokens["delete"]>();
    expectTypeOf(apiTokens({ auth: { accessToken: "a.b.c" } }).create).toEqualTypeOf<ApiTokens["create"]>();
  });
});
