import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  apiTokens,
  createTokenManager,
  EngageVoiceAuthError,
  legacyLogin,
  type TokenStore,
} from "../src/index.js";
import {
  BASE,
  fakeClock,
  fakeServer,
  LEGACY_BASE,
  LEGACY_USER,
  PARENT_TOKEN,
  recordingLogger,
  setup,
} from "./fake-server.js";

const ACCOUNTS = `${BASE}/voice/api/v1/admin/accounts`;

/** Every way a secret could leave an error: message, stack, JSON, inspection, cause. */
function renderings(error: unknown): string[] {
  const e = error as Error;
  return [
    String(e),
    e.message,
    e.stack ?? "",
    JSON.stringify(e),
    inspect(e, { depth: 10, showHidden: true }),
    String(e.cause),
    inspect(e.cause, { depth: 10, showHidden: true }),
    JSON.stringify(e.cause ?? null),
    inspect((e as { refreshError?: unknown }).refreshError, { depth: 10 }),
  ];
}

/** A secret as it is, and as it looks percent- or form-encoded in a URL or a body. */
const forms = (secret: string) => [
  secret,
  encodeURIComponent(secret),
  new URLSearchParams({ s: secret }).toString().slice(2),
];

function expectNoSecret(texts: string[], secrets: Iterable<string>) {
  for (const secret of secrets) {
    for (const form of forms(secret)) {
      for (const text of texts) {
        if (text.includes(form)) {
          throw new Error(`a secret leaked into: ${text.slice(0, 200)}`);
        }
      }
    }
  }
}

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );

describe("secrets never appear in errors or logs", () => {
  it("on every error path", async () => {
    const errors: unknown[] = [];
    const logs: string[] = [];
    const extra = new Set<string>([LEGACY_USER.password, "rc-secret-parent", "aws80:not-a-real-one"]);
    const run = async (
      overrides: Parameters<typeof setup>[0],
      scenario: (s: ReturnType<typeof setup>) => Promise<void>,
      serverOptions: Parameters<typeof setup>[1] = {},
    ) => {
      const s = setup(overrides, serverOptions);
      await scenario(s);
      logs.push(...s.logs);
      for (const secret of s.server.secrets) {
        extra.add(secret);
      }
    };

    // exchange rejected: the fake echoes the parent token in its error body
    await run({ rcAccessToken: "rc-secret-parent" }, async (s) => {
      errors.push(await caught(s.auth.getAccessToken()));
    });
    // rcAccessToken() itself fails with the token in its message
    await run(
      {
        rcAccessToken: () => {
          throw new Error("could not refresh rc-secret-parent");
        },
      },
      async (s) => {
        errors.push(await caught(s.auth.getAccessToken()));
      },
    );
    // refresh rejected, exchange rejected: reauth required (and the refresh error inside it)
    await run({}, async (s) => {
      await s.auth.getAccessToken();
      s.server.revokeRefreshTokens();
      s.server.revokeParentTokens();
      s.clock.advance(301_000);
      errors.push(await caught(s.auth.getAccessToken()));
    });
    // rate limited
    await run({}, async (s) => {
      s.server.fail("exchange", {
        status: 429,
        body: JSON.stringify({ errorCode: "x", generalMessage: PARENT_TOKEN }),
      });
      errors.push(await caught(s.auth.getAccessToken()));
      errors.push(await caught(s.auth.getAccessToken()));
    });
    // unexpected responses: a 500 that echoes, a 200 without a token, a body that is not JSON
    await run({ retries: 0 }, async (s) => {
      s.server.fail(
        "exchange",
        { status: 500, body: PARENT_TOKEN },
        { status: 200, body: "{}", headers: { "Content-Type": "application/json" } },
        { status: 200, body: PARENT_TOKEN, headers: { "Content-Type": "application/json" } },
      );
      errors.push(await caught(s.auth.getAccessToken()));
      errors.push(await caught(s.auth.getAccessToken()));
      errors.push(await caught(s.auth.getAccessToken()));
    });
    // network errors and timeouts (the fake's messages quote the URL)
    // A deadline short enough for the hang, long enough for the first exchange on a busy machine.
    await run({ timeoutMs: 250 }, async (s) => {
      await s.auth.getAccessToken();
      s.clock.advance(301_000);
      s.server.fail("refresh", "network", "lost", "hang");
      errors.push(await caught(s.auth.getAccessToken()));
    });
    // a stream that cannot be replayed, logout during a renewal
    await run({}, async (s) => {
      await s.auth.getAccessToken();
      s.server.expireAccessTokens();
      const body = new Blob(["x"]).stream();
      errors.push(
        await caught(s.auth.fetch(ACCOUNTS, { method: "POST", body, duplex: "half" } as RequestInit)),
      );
      s.clock.advance(301_000);
      const pending = caught(s.auth.getAccessToken());
      await s.auth.logout();
      errors.push(await pending);
    });
    // store failures whose messages quote tokens
    const leakyStore: TokenStore = {
      get: async () => {
        throw new Error("cannot read refresh-1-secret");
      },
      set: async (tokens) => {
        throw new Error(`cannot write ${tokens.accessToken} ${tokens.refreshToken}`);
      },
      clear: async () => {},
    };
    await run({ store: leakyStore }, async (s) => {
      await s.auth.getAccessToken();
    });
    // transport refused, bad options
    for (const create of [
      () => createTokenManager({ baseUrl: "http://engage.example.test", rcAccessToken: "rc-secret-parent" }),
      () =>
        createTokenManager({
          baseUrl: "https://u:rc-secret-parent@x.test",
          rcAccessToken: "rc-secret-parent",
        }),
      () => createTokenManager({ rcAccessToken: "" }),
      () => apiTokens({ baseUrl: "http://portal.example.test", auth: { apiToken: "aws80:not-a-real-one" } }),
    ]) {
      errors.push(
        (() => {
          try {
            create();
          } catch (error) {
            return error;
          }
          throw new Error("expected a failure");
        })(),
      );
    }

    // legacy login: rejected (the fake echoes username:password), and a network error quoting the URL
    const clock = fakeClock();
    const server = fakeServer({ clock });
    const { lines, logger } = recordingLogger();
    const login = { baseUrl: LEGACY_BASE, ...LEGACY_USER, fetch: server.fetch, logger, clock };
    errors.push(await caught(legacyLogin({ ...login, password: `${LEGACY_USER.password}x` })));
    server.fail("login", "network", { status: 503, body: LEGACY_USER.password });
    errors.push(await caught(legacyLogin(login)));
    errors.push(await caught(legacyLogin(login)));
    const session = await legacyLogin(login);
    // permanent tokens: unknown credentials, an unknown token to delete (its requestUri echoes it), bad answers
    const byBearer = apiTokens({
      baseUrl: LEGACY_BASE,
      auth: { accessToken: session.accessToken },
      fetch: server.fetch,
    });
    const created = await byBearer.create();
    const byApiToken = apiTokens({
      baseUrl: LEGACY_BASE,
      auth: { apiToken: "aws80:not-a-real-one" },
      fetch: server.fetch,
    });
    errors.push(await caught(byApiToken.list()));
    // A compile error too: creating a token needs a bearer access token.
    // @ts-expect-error
    errors.push(await caught(byApiToken.create()));
    errors.push(await caught(byApiToken.delete(created)));
    errors.push(await caught(byBearer.delete("aws80:not-a-real-one")));
    server.fail("listTokens", { status: 200, body: JSON.stringify({ token: created }) });
    errors.push(await caught(byBearer.list()));
    server.fail("createToken", "network");
    errors.push(await caught(byBearer.create()));
    logs.push(...lines);
    for (const secret of server.secrets) {
      extra.add(secret);
    }

    expect(errors.length).toBe(24);
    for (const error of errors) {
      expect(error).toBeInstanceOf(EngageVoiceAuthError);
    }
    const codes = new Set(errors.map((e) => (e as EngageVoiceAuthError).code));
    expect([...codes].sort()).toEqual(
      [
        "bearer_required",
        "credential_rejected",
        "exchange_rejected",
        "invalid_options",
        "logged_out",
        "login_rejected",
        "network_error",
        "parent_token_failed",
        "rate_limited",
        "reauth_required",
        "request_not_replayable",
        "transport_refused",
        "unexpected_response",
      ].sort(),
    );
    expect(logs.length).toBeGreaterThan(3);
    expectNoSecret(errors.flatMap(renderings), extra);
    expectNoSecret(logs, extra);
  });

  it("token sets redact themselves when printed, yet give the tokens to code", async () => {
    const s = setup();
    await s.auth.getAccessToken();
    const tokens = await s.auth.refresh();
    expect(tokens.accessToken).toMatch(/^ey/);
    expect([...s.server.secrets]).toContain(tokens.refreshToken);
    const printed = [
      JSON.stringify(tokens),
      JSON.stringify({ tokens }),
      inspect(tokens, { depth: 10 }),
      inspect({ nested: [tokens] }, { depth: 10 }),
      String(tokens),
      `${tokens}`,
    ];
    expectNoSecret(printed, s.server.secrets);
    expect(printed.join()).toContain("[redacted]");
    expect(JSON.parse(JSON.stringify(tokens))).toMatchObject({
      tokenType: "Bearer",
      expiresAt: tokens.expiresAt,
    });
    expect({ ...tokens }.accessToken).toBe(tokens.accessToken); // a copy of the fields keeps them, for stores
    expectNoSecret([JSON.stringify(s.auth.session()), inspect(s.auth)], s.server.secrets);
  });

  it("permanent-token clients do not show their credential", () => {
    const client = apiTokens({ baseUrl: LEGACY_BASE, auth: { apiToken: "aws80:hidden-credential" } });
    expectNoSecret(
      [inspect(client, { depth: 10, showHidden: true }), JSON.stringify(client)],
      ["hidden-credential"],
    );
  });
});
