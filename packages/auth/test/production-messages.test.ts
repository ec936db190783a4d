// Run by the `production` project of vitest.config.ts only, with `__ENGAGE_VOICE_PRODUCTION__`
// defined as the production build defines it: each refusal still happens, with its class and code,
// and its message is the code, the subject and the docs link instead of the explanation.
import { createClient } from "@engage-voice/client";
import { describe, expect, it } from "vitest";
import { ERRORS_DOCS, VERBOSE } from "../src/errors.js";
import {
  createTenantPool,
  createTokenManager,
  type EngageVoiceAuthError,
  memoryStore,
  OriginMismatchError,
  ReauthRequiredError,
  TransportRefusedError,
} from "../src/index.js";
import { BASE, setup } from "./fake-server.js";

const escaped = ERRORS_DOCS.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
/** The production form of a message: the code, the subject in parentheses and the docs link. */
const lean = (code: string, subject: string | RegExp) =>
  new RegExp(
    `^${code} \\(${typeof subject === "string" ? subject.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&") : subject.source}\\): see ${escaped}$`,
  );

async function thrown(run: () => unknown): Promise<EngageVoiceAuthError> {
  try {
    await run();
  } catch (error) {
    return error as EngageVoiceAuthError;
  }
  throw new Error("nothing was thrown");
}

describe("errors of the production build", () => {
  it("runs with the production build's definition", () => {
    expect(VERBOSE).toBe(false);
  });

  it("refuse bad options and an insecure transport with the code, the subject and the link", async () => {
    const transport = await thrown(() =>
      createTokenManager({ baseUrl: "http://engage.example", rcAccessToken: "t" }),
    );
    expect(transport).toBeInstanceOf(TransportRefusedError);
    expect(transport.message).toMatch(lean("transport_refused", "http://engage.example"));
    const cases: [object, string][] = [
      [{ rcAccessToken: "" }, "rcAccessToken"],
      [{ rcAccessToken: "a b" }, "rcAccessToken"],
      [{ rcAccessToken: 5 }, "rcAccessToken"],
      [{ rcAccessToken: "t", baseUrl: "https://portal.vacd.biz" }, "baseUrl"],
    ];
    for (const [options, subject] of cases) {
      const error = await thrown(() => createTokenManager(options as never));
      expect(error.code, JSON.stringify(options)).toBe("invalid_options");
      expect(error.message).toMatch(lean("invalid_options", subject));
    }
  });

  it("refuse a tenant's mistakes with the code and the tenant", async () => {
    const badTenant = await thrown(() => createTokenManager({ rcAccessToken: "t", tenant: "a b" }));
    expect(badTenant.message).toMatch(lean("invalid_options", "tenant"));
    const noTenant = await thrown(() => createTokenManager({ rcAccessToken: "t", store: memoryStore() }));
    expect(noTenant.message).toMatch(lean("invalid_options", "tenant"));
    const twoTenants = await thrown(() =>
      createTokenManager({ rcAccessToken: "t", tenant: "a", store: { ...memoryStore(), tenant: "b" } }),
    );
    expect(twoTenants.message).toMatch(lean("invalid_options", "tenant"));
    const store = memoryStore();
    await setup({ store, tenant: "acme" }).auth.getAccessToken();
    const mismatch = await thrown(() => setup({ store, tenant: "globex", logger: {} }).auth.getAccessToken());
    expect(mismatch.message).toMatch(lean("tenant_mismatch", "tenant globex"));
    let account = "111";
    const answers = createTokenManager({
      rcAccessToken: "t",
      tenant: "acme",
      logger: {},
      fetch: async () =>
        Response.json({ accessToken: `access-${account}`, refreshToken: "r", mainAccountId: account }),
    });
    await answers.getAccessToken();
    account = "222";
    expect((await thrown(() => answers.refresh())).message).toMatch(lean("tenant_mismatch", "tenant acme"));
    const pool = createTenantPool({ rcAccessToken: () => "t" });
    await pool.close();
    expect((await thrown(() => pool.get("t1"))).message).toMatch(lean("closed", "pool"));
    const noFunction = await thrown(() => createTenantPool({ rcAccessToken: "t" as never }));
    expect(noFunction.message).toMatch(lean("invalid_options", "rcAccessToken"));
  });

  it("say which token call was refused, without the hint", async () => {
    const refused = setup({ rcAccessToken: "expired-parent-token" });
    const exchange = await thrown(() => refused.auth.getAccessToken());
    expect(exchange.code).toBe("exchange_rejected");
    expect(exchange.message).toMatch(
      lean("exchange_rejected", /The token exchange was refused with 40\d[^:]*/),
    );

    const missing = setup();
    missing.server.fail("exchange", { status: 404 });
    const notFound = await thrown(() => missing.auth.getAccessToken());
    expect(notFound.message).toMatch(lean("unexpected_response", /The token exchange answered 404[^:]*/));

    const s = setup();
    await s.auth.getAccessToken();
    s.server.revokeRefreshTokens();
    s.server.revokeParentTokens();
    s.clock.advance(301_000);
    const reauth = (await thrown(() => s.auth.getAccessToken())) as ReauthRequiredError;
    expect(reauth).toBeInstanceOf(ReauthRequiredError);
    expect(reauth.message).toMatch(lean("reauth_required", "exchange_rejected"));
    expect(reauth.refreshError.message).toMatch(
      lean("refresh_rejected", /The token refresh was refused with 401[^:]*/),
    );
  });

  it("fail a middleware on another origin, and a stream that cannot be sent again", async () => {
    const s = setup({ baseUrl: undefined as never });
    const client = createClient({ baseUrl: "http://127.0.0.1:4010", fetch: s.server.fetch });
    client.use(s.auth.middleware);
    const mismatch = await thrown(() => client.GET("/voice/api/v1/admin/accounts"));
    expect(mismatch).toBeInstanceOf(OriginMismatchError);
    expect(mismatch.message).toMatch(
      lean("origin_mismatch", "http://127.0.0.1:4010 is not https://engage.ringcentral.com"),
    );

    const t = setup();
    await t.auth.getAccessToken();
    t.server.expireAccessTokens();
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("streamed"));
        controller.close();
      },
    });
    const stream = await thrown(() =>
      t.auth.fetch(`${BASE}/voice/api/v1/admin/accounts`, {
        method: "POST",
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(stream.code).toBe("request_not_replayable");
    expect(stream.message).toMatch(lean("request_not_replayable", "stream body"));
  });

  it("say what ended a wait: a logout during the renewal, a manager closed", async () => {
    let logout = async () => {};
    const s = setup({ tenant: "acme", sleep: () => logout() });
    logout = () => s.auth.logout();
    s.server.fail("exchange", { status: 503 });
    expect((await thrown(() => s.auth.getAccessToken())).message).toMatch(lean("logged_out", "logout()"));
    await s.auth.close();
    expect((await thrown(() => s.auth.getAccessToken())).message).toMatch(lean("closed", "tenant acme"));
  });

  it("keep the refusal of a store with a lock that does not carry its locking rules", async () => {
    const store = { ...memoryStore(), lock: <T>(task: () => Promise<T>) => task() };
    const error = await thrown(() => createTokenManager({ rcAccessToken: "t", tenant: "acme", store }));
    expect(error.message).toMatch(lean("invalid_options", "store.lockingRules"));
  });
});
