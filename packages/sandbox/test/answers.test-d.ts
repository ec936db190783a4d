// The sandbox's answers are typed by the document: `Answer<Id>` must be the declared body, neither
// `unknown` (anything would satisfy it) nor `never` (nothing would).
import type {
  Account,
  PermanentApiToken,
  RefreshedTokenResponse,
  TokenResponse,
  User,
} from "@engage-voice/client";
import { describe, expectTypeOf, it } from "vitest";
import type { Answer } from "../src/operations.js";

describe("Answer", () => {
  it("is the body the document declares for each operation the sandbox serves", () => {
    expectTypeOf<Answer<"exchangeAccessToken">>().toEqualTypeOf<TokenResponse>();
    expectTypeOf<Answer<"legacyLogin">>().toEqualTypeOf<TokenResponse>();
    expectTypeOf<Answer<"refreshAccessToken">>().toEqualTypeOf<RefreshedTokenResponse>();
    expectTypeOf<Answer<"listAccounts">>().toEqualTypeOf<Account[]>();
    expectTypeOf<Answer<"listUsers">>().toEqualTypeOf<User[]>();
    expectTypeOf<Answer<"listApiTokens">>().toEqualTypeOf<PermanentApiToken[]>();
    expectTypeOf<Answer<"createApiToken", "text/plain">>().toEqualTypeOf<PermanentApiToken>();
    expectTypeOf<Answer<"deleteApiToken", "text/plain">>().toEqualTypeOf<"true">();
  });

  it("refuses an answer of the wrong shape", () => {
    // @ts-expect-error: an access token is a string
    ({ accessToken: 1 }) satisfies Answer<"exchangeAccessToken">;
    // @ts-expect-error: a refreshed answer carries a refresh token
    ({ accessToken: "a.b.c" }) satisfies Answer<"refreshAccessToken">;
    // @ts-expect-error: no such media type is declared for this operation
    expectTypeOf<Answer<"listAccounts", "text/plain">>().toEqualTypeOf<Account[]>();
  });
});
