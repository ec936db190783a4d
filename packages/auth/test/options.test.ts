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
import { retryAfterMs } from "../src/requests.js";
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
    ["timeoutMs 3e9", manager({ timeoutMs: 3e9 }), /timeoutMs must be an integer from 1 to 600000/],
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
    ["rateLimitRetry 'x'", manager({ rateLimitRetry: "x" }), /rateLimitRetry needs an options object/],
    ["rateLimitRetry.retries 11", manager({ rateLimitRetry: { retries: 11 } }), /rateLimitRetry.retries/],
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

describe("Retry-After", () => {
  const at = (value: string, date?: string) =>
    retryAfterMs(
      new Response(null, { status: 429, headers: { "Retry-After": value, ...(date ? { Date: date } : {}) } }),
      Date.UTC(2025, 0, 1),
    );

  it("reads delay-seconds and the HTTP-date forms", () => {
    expect(at("7")).toBe(7_000);
    expect(at("0")).toBe(0);
    expect(at("Wed, 01 Jan 2025 00:00:30 GMT", "Wed, 01 Jan 2025 00:00:00 GMT")).toBe(30_000);
    expect(at("Wednesday, 01-Jan-25 00:00:30 GMT", "Wed, 01 Jan 2025 00:00:00 GMT")).toBe(30_000);
    expect(at("Wed Jan  1 00:00:30 2025", "Wed, 01 Jan 2025 00:00:00 GMT")).toBe(30_000);
    expect(at("Wed, 01 Jan 2025 00:00:45 GMT")).toBe(45_000); // against the local clock without Date
  });

  it.each(["-5", "1.5", "7, 8", "soon", "", "2025-01-01", "Wed, 01 Jan 2025"])(
    "%j is not a legal value: the 60 s fallback",
    (value) => {
      expect(at(value)).toBe(60_000);
    },
  );
});
