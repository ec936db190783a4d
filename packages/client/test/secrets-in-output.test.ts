// Every line a client prints and every error it throws, over a scenario of every operation, with the
// paths written as templates with parameters and written out literally (the query string of the
// deprecated login as the specification writes it, the token of a delete in the path): no value of a
// path or a query, and so no secret, is ever printed. Waits are an injected sleep; a deadline ends a
// fetch that never answers, whatever the time it takes.
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  callDefaults,
  createClient,
  createLegacyClient,
  type EngageVoiceClientOptions,
} from "../src/index.js";

const SECRETS = {
  username: "ada.lovelace@example.test",
  password: "s3cret pass/word&x=1",
  platformId: "platform-7f3e91",
  accessToken: "eyJhbGciOiJIUzI1NiJ9.access-secret.sig",
  refreshToken: "refresh-secret-5d2a",
  rcAccessToken: "rc-parent-secret-9b1c",
  apiToken: "aws80:c2353445-7d1c-4b51-9a2e-5f0c1e8b6a47",
};

/** A secret as it is, and as it looks percent- or form-encoded in a URL or a body. */
const forms = (secret: string) => [
  secret,
  encodeURIComponent(secret),
  new URLSearchParams({ s: secret }).toString().slice(2),
];

/** Every way an error can be printed: message, stack, JSON, inspection. */
const renderings = (error: unknown) => [
  String(error),
  (error as Error).message,
  (error as Error).stack ?? "",
  JSON.stringify(error),
  inspect(error, { depth: 10, showHidden: true }),
];

/** A fetch that answers only its signal's abort: the call's deadline ends it. */
const hanging = (_: Request, init?: RequestInit) =>
  new Promise<Response>((_, reject) =>
    init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
  );

/** Answers in turn, the last one then for ever; `"hang"` never answers. */
function answers(...list: (number | "hang")[]) {
  let i = 0;
  return (request: Request, init?: RequestInit) => {
    const next = list[Math.min(i++, list.length - 1)];
    return next === "hang"
      ? hanging(request, init)
      : Promise.resolve(new Response(`echo ${request.url}`, { status: next as number }));
  };
}

type Loose = Record<
  "GET" | "POST" | "DELETE",
  (url: string, init?: object) => Promise<{ response: Response }>
>;

const q = new URLSearchParams({
  username: SECRETS.username,
  password: SECRETS.password,
  platformId: SECRETS.platformId,
}).toString();
const bearer = { headers: { Authorization: `Bearer ${SECRETS.accessToken}` } };

/** Each operation, as a template with parameters and as the literal path a caller may write. */
const ways = {
  templated: {
    login: [
      "/api/auth/login/admin",
      {
        params: {
          query: { username: SECRETS.username, password: SECRETS.password, platformId: SECRETS.platformId },
        },
      },
    ],
    deleteToken: [
      "/voice/api/v1/admin/token/{apiToken}",
      { params: { path: { apiToken: SECRETS.apiToken } }, ...bearer },
    ],
    users: ["/voice/api/v1/admin/users", bearer],
  },
  literal: {
    login: [`/api/auth/login/admin?${q}`, {}],
    deleteToken: [`/voice/api/v1/admin/token/${SECRETS.apiToken}`, bearer],
    users: [`/voice/api/v1/admin/users?access_token=${SECRETS.accessToken}`, {}],
  },
} as const;

async function scenario(way: keyof typeof ways, options: EngageVoiceClientOptions) {
  const { login, deleteToken, users } = ways[way];
  const errors: unknown[] = [];
  const settle = async (call: Promise<unknown>) => {
    try {
      await call;
    } catch (error) {
      errors.push(error);
    }
  };
  // The clock stands still, so that a retry's wait fits in the deadline; a try that never answers
  // is ended by the deadline's own timer, which is real.
  const base = { ...options, sleep: async () => {}, random: () => 0, clock: { now: () => 0 } };
  const short = { ...base, timeoutMs: 20 };
  // Just longer than the first wait (random() = 0: half of firstRetryMs).
  const retried = { ...base, timeoutMs: callDefaults.firstRetryMs / 2 + 1 };
  const legacy = (fetch: typeof hanging, policy = base) =>
    createLegacyClient({ ...policy, fetch }) as unknown as Loose;
  const main = (fetch: typeof hanging, policy = base) =>
    createClient({ ...policy, fetch }) as unknown as Loose;

  // The deprecated login: no answer, then an error answer (a POST is tried once).
  await settle(legacy(answers("hang"), short).POST(login[0], login[1]));
  await settle(legacy(answers(503)).POST(login[0], login[1]));
  // Permanent tokens: a create refused, a list retried, a delete retried then timed out, and one read as a stream.
  await settle(legacy(answers(500)).POST("/voice/api/v1/admin/token", bearer));
  await settle(legacy(answers(503, 503, 200)).GET("/voice/api/v1/admin/token", bearer));
  await settle(legacy(answers(503, "hang"), retried).DELETE(deleteToken[0], deleteToken[1]));
  await settle(
    legacy(answers(503, 200))
      .DELETE(deleteToken[0], { ...deleteToken[1], parseAs: "stream" })
      .then(({ response }) => response.body?.cancel()),
  );
  // The contact-center host: the exchange, the refresh, and an API call retried then timed out.
  await settle(
    main(answers(503)).POST("/api/auth/login/rc/accesstoken", {
      params: { query: { includeRefresh: true } },
      body: { rcAccessToken: SECRETS.rcAccessToken, rcTokenType: "Bearer" },
    }),
  );
  await settle(
    main(answers("hang"), short).POST("/api/auth/token/refresh", {
      body: { refresh_token: SECRETS.refreshToken, rcTokenType: "Bearer" },
    }),
  );
  await settle(main(answers(503, "hang"), retried).GET(users[0], users[1]));
  return errors;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("no value of a path or a query is printed", () => {
  it.each(Object.keys(ways) as (keyof typeof ways)[])(
    "in any line or error, with paths written %s",
    async (way) => {
      const lines: string[] = [];
      const record = (level: string) => (line: unknown) => void lines.push(`${level} ${String(line)}`);
      const logger = {
        debug: record("debug"),
        info: record("info"),
        warn: record("warn"),
        error: record("error"),
      };
      const errors = await scenario(way, { logger });

      // The default logger, console, with debug lines on.
      vi.stubEnv("ENGAGE_VOICE_LOG", "debug");
      for (const level of ["log", "debug", "info", "warn", "error"] as const) {
        vi.spyOn(console, level).mockImplementation(record(`console.${level}`));
      }
      errors.push(...(await scenario(way, {})));

      const texts = [...lines, ...errors.flatMap(renderings)];
      // The scenario did print: retries, a line per try, and the deadlines' errors.
      expect(lines.filter((line) => line.startsWith("warn ")).length).toBeGreaterThanOrEqual(4);
      expect(lines.filter((line) => line.startsWith("console.warn ")).length).toBeGreaterThanOrEqual(4);
      expect(lines.filter((line) => line.startsWith("console.error ")).length).toBeGreaterThanOrEqual(8);
      expect(errors.map((error) => (error as Error).name)).toContain("RequestTimeoutError");
      expect(texts.join("\n")).toContain("/voice/api/v1/admin/token/{apiToken}");
      expect(texts.join("\n")).toContain("POST /api/auth/login/admin did not finish");
      for (const secret of Object.values(SECRETS)) {
        for (const form of forms(secret)) {
          const leak = texts.find((text) => text.includes(form));
          expect(leak, `a secret in: ${leak}`).toBeUndefined();
        }
      }
    },
  );
});
