// Every line and error of a scenario through `auth.fetch`, `auth.client()` and the middleware, with
// the paths written as templates and written out with values (a token in a path segment, an access
// token in a query): no value of a path or a query, and so no secret, is printed. Waits move the fake
// clock; a try that never answers is ended by the call's deadline.
import { inspect } from "node:util";
import { callDefaults, createClient } from "@engage-voice/client";
import { describe, expect, it } from "vitest";
import { hanging, STUB, stubManager } from "./stub-exchange.js";

const BASE = STUB.baseUrl;

/** Not the document's paths: `auth.fetch` sends any path of the manager's host. */
const SECRET_SEGMENT = "aws80:c2353445-7d1c-4b51-9a2e-5f0c1e8b6a47";

/** A secret as it is, and as it looks percent- or form-encoded in a URL. */
const forms = (secret: string) => [
  secret,
  encodeURIComponent(secret),
  new URLSearchParams({ s: secret }).toString().slice(2),
];

const renderings = (error: unknown) => [
  String(error),
  (error as Error).message,
  (error as Error).stack ?? "",
  JSON.stringify(error),
  inspect(error, { depth: 10, showHidden: true }),
];

const ways = {
  templated: () => ["/voice/api/v1/admin/users", "/voice/api/v1/admin/accounts"],
  literal: (accessToken: string) => [
    `/voice/api/v1/admin/users?access_token=${accessToken}`,
    `/voice/api/v1/admin/accounts/${SECRET_SEGMENT}/users?x=${SECRET_SEGMENT}`,
  ],
};

type Loose = { GET(url: string, init?: object): Promise<{ response: Response }> };

describe("no value of a path or a query is printed", () => {
  it.each(Object.keys(ways) as (keyof typeof ways)[])(
    "in any line or error of auth's calls, with paths written %s",
    async (way) => {
      // API calls answer 503, then never: each is retried once, then ended by its deadline (just
      // longer than the first wait, which random() = 0 makes half of firstRetryMs).
      let apiCalls = 0;
      const timeoutMs = callDefaults.firstRetryMs / 2 + 1;
      const { auth, lines, policy, fetch } = stubManager(
        (request, init) =>
          apiCalls++ % 2 === 0
            ? Promise.resolve(new Response(`echo ${request.url}`, { status: 503 }))
            : hanging(request, init),
        { timeoutMs },
      );
      const accessToken = await auth.getAccessToken();
      const errors: unknown[] = [];
      const settle = (call: Promise<unknown>) =>
        call.then(
          () => undefined,
          (error) => errors.push(error),
        );

      const middlewareClient = createClient({
        ...policy,
        baseUrl: BASE,
        fetch,
        timeoutMs,
      });
      middlewareClient.use(auth.middleware);
      for (const path of ways[way](accessToken)) {
        await settle(auth.fetch(`${BASE}${path}`));
        await settle((auth.client() as unknown as Loose).GET(path));
        await settle((middlewareClient as unknown as Loose).GET(path));
      }

      const texts = [...lines, ...errors.flatMap(renderings)];
      expect(errors).toHaveLength(6);
      expect(errors.map((error) => (error as Error).name)).toEqual(Array(6).fill("RequestTimeoutError"));
      expect(lines.filter((line) => line.startsWith("warn ")).length).toBeGreaterThanOrEqual(6);
      for (const secret of [accessToken, STUB.refreshToken, SECRET_SEGMENT, STUB.parentToken]) {
        for (const form of forms(secret)) {
          const leak = texts.find((text) => text.includes(form));
          expect(leak, "a secret was printed").toBeUndefined();
        }
      }
    },
  );
});
