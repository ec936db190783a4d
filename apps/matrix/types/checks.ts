// Type tests against the published declaration files, as a user's project compiles them. Copied into
// each type consumer (node16 as checks.mts and checks.cts, an ES module and a CommonJS file; bundler
// as checks.ts) and compiled there; never run.
import {
  apiTokens,
  createTokenManager,
  type EngageVoiceAuthError,
  ExchangeRejectedError,
  memoryStore,
  RateLimitedError,
  type Session,
  type TokenManager,
  type TokenSet,
  type TokenStore,
} from "@engage-voice/auth";
import {
  type Account,
  type ApiError,
  type ClientOptionsError,
  createClient,
  createLegacyClient,
  type EngageVoiceClient,
  isApiError,
  type TokenResponse,
  type User,
} from "@engage-voice/client";
import { expectTypeOf } from "expect-type";

export async function clientChecks(): Promise<void> {
  const main = createClient({ baseUrl: "https://engage.ringcentral.com" });
  const legacy = createLegacyClient();
  expectTypeOf(main).toEqualTypeOf<EngageVoiceClient>();

  // Each client knows its own host's paths only.
  // @ts-expect-error: a legacy path on the main client
  void main.GET("/voice/api/v1/admin/token");
  // @ts-expect-error: a legacy path on the main client
  void main.POST("/api/auth/login/admin", {
    params: { query: { username: "u", password: "p", platformId: "x" } },
  });
  // @ts-expect-error: a main path on the legacy client
  void legacy.GET("/voice/api/v1/admin/accounts");

  // Responses and errors are typed.
  const accounts = await main.GET("/voice/api/v1/admin/accounts");
  expectTypeOf(accounts.data).toExtend<Account[] | undefined>();
  expectTypeOf<NonNullable<typeof accounts.data>[number]["accountId"]>().toEqualTypeOf<string | undefined>();
  expectTypeOf(accounts.error).toExtend<string | ApiError | undefined>();
  expectTypeOf<string>().toExtend<NonNullable<typeof accounts.error>>();
  if (isApiError(accounts.error)) {
    expectTypeOf(accounts.error.errorCode).toEqualTypeOf<string>();
  }

  const users = await main.GET("/voice/api/v1/admin/users", { params: { query: { flatten: true } } });
  expectTypeOf(users.data).toExtend<User[] | undefined>();
  expectTypeOf<NonNullable<typeof users.data>[number]["userId"]>().toEqualTypeOf<number | undefined>();
  // @ts-expect-error: flatten is a boolean
  void main.GET("/voice/api/v1/admin/users", { params: { query: { flatten: "yes" } } });

  const exchange = await main.POST("/api/auth/login/rc/accesstoken", {
    params: { query: { includeRefresh: true } },
    body: { rcAccessToken: "t", rcTokenType: "Bearer" },
  });
  expectTypeOf(exchange.data).toExtend<TokenResponse | undefined>();
  expectTypeOf<NonNullable<typeof exchange.data>["accessToken"]>().toEqualTypeOf<string>();

  const created = await legacy.POST("/voice/api/v1/admin/token");
  expectTypeOf(created.data).toEqualTypeOf<string | undefined>();
  const listed = await legacy.GET("/voice/api/v1/admin/token");
  expectTypeOf(listed.data).toEqualTypeOf<string[] | undefined>();

  // Form bodies and the login's query demand their required fields.
  // @ts-expect-error: rcTokenType is required
  void main.POST("/api/auth/login/rc/accesstoken", { body: { rcAccessToken: "t" } });
  // @ts-expect-error: refresh_token is required
  void main.POST("/api/auth/token/refresh", { body: { rcTokenType: "Bearer" } });
  // @ts-expect-error: the body is required
  void main.POST("/api/auth/token/refresh", {});
  // @ts-expect-error: the login takes all three query parameters
  void legacy.POST("/api/auth/login/admin", { params: { query: { username: "u", password: "p" } } });
  // @ts-expect-error: the path parameter is required
  void legacy.DELETE("/voice/api/v1/admin/token/{apiToken}", {});

  expectTypeOf<ClientOptionsError>().toExtend<TypeError>();
  expectTypeOf<ClientOptionsError["code"]>().toEqualTypeOf<"invalid_options">();
}

export async function authChecks(store: TokenStore = memoryStore()): Promise<void> {
  const manager = createTokenManager({ rcAccessToken: () => "parent", tenant: "acme", store });
  expectTypeOf(manager).toEqualTypeOf<TokenManager>();
  expectTypeOf(manager.getAccessToken()).resolves.toEqualTypeOf<string>();
  expectTypeOf(manager.refresh()).resolves.toEqualTypeOf<TokenSet>();
  expectTypeOf(manager.session()).toEqualTypeOf<Session | undefined>();
  expectTypeOf<Session["accountIds"]>().toEqualTypeOf<string[]>();
  expectTypeOf<TokenSet["expiresAt"]>().toEqualTypeOf<number>();

  const main = createClient();
  main.use(manager.middleware);

  // @ts-expect-error: rcAccessToken is required
  createTokenManager({ baseUrl: "https://engage.ringcentral.com" });
  // @ts-expect-error: rcAccessToken is a string or a function returning one
  createTokenManager({ rcAccessToken: 42 });

  const tokens = apiTokens({ auth: { accessToken: "a" } });
  expectTypeOf(tokens.create()).resolves.toEqualTypeOf<string>();
  expectTypeOf(tokens.list()).resolves.toEqualTypeOf<string[]>();
  // @ts-expect-error: auth names a credential
  apiTokens({ auth: {} });

  try {
    await manager.getAccessToken();
  } catch (error) {
    if (error instanceof ExchangeRejectedError) {
      expectTypeOf(error).toExtend<EngageVoiceAuthError>();
      expectTypeOf(error.code).toEqualTypeOf<"exchange_rejected">();
      expectTypeOf(error.status).toEqualTypeOf<number | undefined>();
    }
    if (error instanceof RateLimitedError) {
      expectTypeOf(error.retryAfterMs).toEqualTypeOf<number>();
    }
  }
}
