// Type-level contract: checked by the tsc that the test script runs first (tsconfig.json includes test/).
import { describe, expectTypeOf, it } from "vitest";
import {
  type Account,
  type AgentDetail,
  type ApiError,
  createClient,
  createLegacyClient,
  type TokenResponse,
  type User,
} from "../src/index.js";
import { stubFetch } from "./stub-fetch.js";

describe("types", () => {
  const { fetch } = stubFetch();
  const main = createClient({ fetch });
  const legacy = createLegacyClient({ fetch });

  it("keep each client to its own host's paths", () => {
    // @ts-expect-error: a legacy path on the main client
    void main.GET("/voice/api/v1/admin/token");
    // @ts-expect-error: a main path on the legacy client
    void legacy.GET("/voice/api/v1/admin/accounts");
    // @ts-expect-error: the exchange lives on the main host only
    void legacy.POST("/api/auth/login/rc/accesstoken", {
      body: { rcAccessToken: "t", rcTokenType: "Bearer" },
    });
  });

  it("type responses and errors", async () => {
    const accounts = await main.GET("/voice/api/v1/admin/accounts");
    expectTypeOf(accounts.data).toExtend<Account[] | undefined>();
    expectTypeOf<NonNullable<typeof accounts.data>[number]["accountId"]>().toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf(accounts.error).toExtend<string | ApiError | undefined>();
    expectTypeOf<string>().toExtend<NonNullable<typeof accounts.error>>();
    const users = await main.GET("/voice/api/v1/admin/users");
    expectTypeOf(users.data).toExtend<User[] | undefined>();
    const exchange = await main.POST("/api/auth/login/rc/accesstoken", {
      body: { rcAccessToken: "t", rcTokenType: "Bearer" },
    });
    expectTypeOf(exchange.data).toExtend<TokenResponse | undefined>();
    expectTypeOf<NonNullable<typeof exchange.data>["accessToken"]>().toEqualTypeOf<string>();
    const created = await legacy.POST("/voice/api/v1/admin/token");
    expectTypeOf(created.data).toEqualTypeOf<string | undefined>();
  });

  it("type observed fields that public sources disagree on as every form seen, never one guess", () => {
    type MainAccount = NonNullable<Account["mainAccount"]>;
    // The official documents say integer; a boolean is a precaution: `=== true` alone would miss 1.
    expectTypeOf<NonNullable<MainAccount["isActive"]>>().toEqualTypeOf<boolean | number>();
    expectTypeOf<1>().toExtend<NonNullable<MainAccount["isActive"]>>();
    type Regional = NonNullable<User["regionalSettings"]>;
    expectTypeOf<NonNullable<Regional["timezone"]>>().toEqualTypeOf<number | string>();
    expectTypeOf<NonNullable<Regional["homeCountry"]>>().toEqualTypeOf<number | string>();
    // All three official documents type it as a string.
    expectTypeOf<Regional["greetingLanguage"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<{ year: 2025 }>().toExtend<NonNullable<Account["startDate"]>>();
    expectTypeOf<"2025-01-01">().toExtend<NonNullable<User["creationDate"]>>();
    // Two official documents and the prose show roles as strings, one official document as objects.
    type Role = NonNullable<User["roles"]>[number];
    expectTypeOf<"SUPER_USER">().toExtend<Role>();
    expectTypeOf<{ roleType: "USER"; description: "A user" }>().toExtend<Role>();
    expectTypeOf<Role>().not.toExtend<string>();
    expectTypeOf<Extract<Role, object>["roleType"]>().toEqualTypeOf<string | undefined>();
    // The official documents say integer, not nullable; the sample token response shows null.
    expectTypeOf<NonNullable<AgentDetail["agentGroupId"]>>().toEqualTypeOf<number>();
    expectTypeOf<null>().toExtend<AgentDetail["agentGroupId"]>();
  });

  it("demand the required form fields", () => {
    // @ts-expect-error: rcTokenType is required
    void main.POST("/api/auth/login/rc/accesstoken", { body: { rcAccessToken: "t" } });
    // @ts-expect-error: refresh_token is required
    void main.POST("/api/auth/token/refresh", { body: { rcTokenType: "Bearer" } });
    // @ts-expect-error: the login takes all three query parameters
    void legacy.POST("/api/auth/login/admin", { params: { query: { username: "u", password: "p" } } });
  });
});
