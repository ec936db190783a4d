import { createClient, createLegacyClient } from "@engage-voice/client";
import { describe, expect, it } from "vitest";
import {
  apiTokenMiddleware,
  apiTokens,
  createTokenManager,
  EngageVoiceAuthError,
  legacyLogin,
  memoryStore,
} from "../src/index.js";
import { BASE, LEGACY_BASE, setup } from "./fake-server.js";

const SECRET = "sekret-value-never-quoted";

/** The typed error `make` throws, or a failure of the test. */
function thrown(make: () => unknown): EngageVoiceAuthError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(EngageVoiceAuthError);
    return error as EngageVoiceAuthError;
  }
  throw new Error("expected a throw");
}

const manager = (extra: Record<string, unknown>) => () =>
  createTokenManager({ baseUrl: BASE, rcAccessToken: SECRET, ...extra } as never);

describe("every option of every public function is checked by one validator", () => {
  it.each<[string, () => unknown, RegExp]>([
    [
      "createTokenManager(undefined)",
      () => createTokenManager(undefined as never),
      /needs an options object/,
    ],
    ["createTokenManager(null)", () => createTokenManager(null as never), /needs an options object/],
    ["baseUrl with a path", manager({ baseUrl: `${BASE}/voice` }), /without a path, query or fragment/],
    ["baseUrl with a query", manager({ baseUrl: `${BASE}/?x=1` }), /without a path, query or fragment/],
    ["baseUrl with a fragment", manager({ baseUrl: `${BASE}#x` }), /without a path, query or fragment/],
    ["baseUrl with an empty query", manager({ baseUrl: `${BASE}?` }), /without a path, query or fragment/],
    [
      "baseUrl with user:pass@",
      manager({ baseUrl: `https://user:${SECRET}@engage.example.test` }),
      /username or password/,
    ],
    ["baseUrl not a string", manager({ baseUrl: 42 }), /baseUrl must be a string/],
    ["timeoutMs 3e9", manager({ timeoutMs: 3e9 }), /timeoutMs must be an integer from 1 to 3600000/],
    ["maxRetries 11", manager({ maxRetries: 11 }), /maxRetries must be an integer from 0 to 10/],
    [
      "baseURL",
      manager({ baseURL: "http://127.0.0.1:1" }),
      /has no option "baseURL": did you mean baseUrl\?/,
    ],
    ["timeout", manager({ timeout: 5 }), /has no option "timeout": did you mean timeoutMs\?/],
    [
      "the deprecated host as baseUrl",
      manager({ baseUrl: "https://portal.vacd.biz" }),
      /deprecated login host, which has no token exchange: .*legacyLogin\(\) and createLegacyClient\(\)/,
    ],
    [
      "apiTokens({ baseURL })",
      () => apiTokens({ auth: { apiToken: "a:1" }, baseURL: LEGACY_BASE } as never),
      /apiTokens\(\) has no option "baseURL": did you mean baseUrl\?/,
    ],
    [
      "apiTokenMiddleware(token, { baseURL })",
      () => apiTokenMiddleware("a:1", { baseURL: LEGACY_BASE } as never),
      /apiTokenMiddleware\(\) has no option "baseURL": did you mean baseUrl\?/,
    ],
    ["timeoutMs 1e12", manager({ timeoutMs: 1e12 }), /timeoutMs must be an integer/],
    ["timeoutMs NaN", manager({ timeoutMs: Number.NaN }), /timeoutMs must be an integer/],
    ["retries -1", manager({ retries: -1 }), /retries must be an integer/],
    ["exchangesPerMinute 0", manager({ exchangesPerMinute: 0 }), /exchangesPerMinute must be an integer/],
    ["logger null", manager({ logger: null }), /logger must be an object/],
    ["logger.warn not a function", manager({ logger: { warn: "x" } }), /logger.warn must be a function/],
    ["refreshWindow 'x'", manager({ refreshWindow: "x" }), /refreshWindow must be a function/],
    [
      "refreshWindow () => NaN",
      manager({ refreshWindow: () => Number.NaN }),
      /refreshWindow must return a finite number/,
    ],
    ["refreshWindow () => -1", manager({ refreshWindow: () => -1 }), /refreshWindow must return/],
    ["fetch 'x'", manager({ fetch: "x" }), /fetch must be a function/],
    ["store {}", manager({ store: {} }), /store must be a TokenStore/],
    [
      "store with a lock that is not a function",
      manager({ store: { ...memoryStore(), lock: 1 } }),
      /store must be/,
    ],
    ["onTokens 'x'", manager({ onTokens: "x" }), /onTokens must be a function/],
    [
      "allowInsecureHttp 'no'",
      manager({ allowInsecureHttp: "no" }),
      /allowInsecureHttp must be true or false/,
    ],
    ["clock {}", manager({ clock: {} }), /clock must be an object with now/],
    [
      "rcAccessToken with a line break",
      manager({ rcAccessToken: `${SECRET}\n` }),
      /rcAccessToken must be a token/,
    ],
    ["apiTokens(undefined)", () => apiTokens(undefined as never), /needs an options object/],
    ["apiTokens({ auth: null })", () => apiTokens({ auth: null } as never), /auth.accessToken/],
    ["apiTokens timeoutMs 0", () => apiTokens({ auth: { accessToken: SECRET }, timeoutMs: 0 }), /timeoutMs/],
    [
      "apiTokens clock {}",
      () => apiTokens({ auth: { accessToken: SECRET }, clock: {} as never }),
      /clock must be an object with now/,
    ],
    [
      "apiTokenMiddleware(t, null)",
      () => apiTokenMiddleware(SECRET, null as never),
      /needs an options object/,
    ],
    [
      "apiTokenMiddleware(t, { baseUrl: path })",
      () => apiTokenMiddleware(SECRET, { baseUrl: `${LEGACY_BASE}/x` }),
      /without a path/,
    ],
  ])("%s", (_, make, message) => {
    const error = thrown(make);
    expect(error.code).toBe("invalid_options");
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(SECRET);
  });

  it("legacyLogin rejects bad options before anything is sent", async () => {
    const s = setup();
    for (const options of [
      null,
      {
        username: "u",
        password: SECRET,
        platformId: "p",
        baseUrl: `${LEGACY_BASE}/api`,
        fetch: s.server.fetch,
      },
      { username: "u", password: SECRET, platformId: "p", timeoutMs: -5, fetch: s.server.fetch },
      { username: "u", password: SECRET, platformId: "p", logger: null, fetch: s.server.fetch },
      { username: "u", password: SECRET, platformId: "p", clock: {}, fetch: s.server.fetch },
    ]) {
      const error = await legacyLogin(options as never).catch((e) => e);
      expect(error.code).toBe("invalid_options");
      expect(error.message).not.toContain(SECRET);
    }
    expect(s.server.requests).toHaveLength(0);
  });

  it("the client's own options are typed errors too", () => {
    for (const make of [() => createClient(null as never), () => createLegacyClient(null as never)]) {
      expect(make).toThrow(expect.objectContaining({ code: "invalid_options" }));
    }
  });

  it("a baseUrl of an origin with or without its slash is accepted", () => {
    expect(() => createTokenManager({ baseUrl: `${BASE}/`, rcAccessToken: "rc" })).not.toThrow();
    expect(() => createTokenManager({ baseUrl: BASE, rcAccessToken: "rc" })).not.toThrow();
  });
});
