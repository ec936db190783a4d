// The bundles that .size-limit.ts holds to their budgets are run here, not only weighed: what the
// production build leaves out must not be a guard. Each refusal is checked on the very bundle of
// the budget row (size/app.js with the `production` condition), loaded as a module.
import { fileURLToPath } from "node:url";
import { publicPackages } from "@engage-voice/test-kit/workspace";
import { build, type Platform } from "esbuild";
import { describe, expect, it } from "vitest";
import sizeLimit from "../.size-limit.ts";

const here = fileURLToPath(new URL("..", import.meta.url));

/** As size-limit's esbuild step bundles it (.size-limit.ts), with the files it drew on. */
async function bundle(
  source: string,
  conditions: string[],
  platform: Platform = "browser",
  external: string[] = [],
) {
  const result = await build({
    stdin: { contents: source, resolveDir: here, sourcefile: "entry.js", loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform,
    target: "es2022",
    write: false,
    logLevel: "silent",
    legalComments: "none",
    metafile: true,
    conditions,
    external,
  });
  return {
    code: result.outputFiles[0]?.contents ?? new Uint8Array(),
    inputs: Object.keys(result.metafile.inputs),
  };
}

const APP = `export * from "./size/app.js";`;

interface AppModule {
  createClient: (options?: object) => {
    GET: (path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    POST: (path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    use: (middleware: unknown) => void;
  };
  createTokenManager: (options: object) => { middleware: unknown; fetch: typeof fetch };
}

async function load(conditions: string[]): Promise<AppModule> {
  const { code } = await bundle(APP, conditions);
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
}

const lean = await load(["production"]);
const full = await load([]);

/** What `run` threw, or a failure when it threw nothing. */
async function thrown(run: () => unknown): Promise<Error & { code?: string }> {
  try {
    await run();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("nothing was thrown");
}

/** A fetch that answers from `answer` and counts what it was given. */
function stubFetch(answer: (request: Request, n: number) => Response) {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request);
    return answer(request, requests.length);
  };
  return { fetch, requests };
}

const ACCOUNTS = "/voice/api/v1/admin/accounts";
const noWait = async () => {};

describe("the production build of the app's imports", () => {
  it("refuses a base URL that would leak a credential or send it to a wrong place", async () => {
    for (const baseUrl of [
      "https://user:secret@engage.ringcentral.com",
      "https://engage.ringcentral.com/api",
    ]) {
      const client = await thrown(() => lean.createClient({ baseUrl }));
      expect(client.code, baseUrl).toBe("invalid_options");
      expect(client.message).not.toContain("secret");
      const manager = await thrown(() => lean.createTokenManager({ baseUrl, rcAccessToken: "t" }));
      expect(manager.code, baseUrl).toBe("invalid_options");
      expect(manager.message).not.toContain("secret");
    }
  });

  it("refuses credentials over plain http to another host, and a token that cannot be a header", async () => {
    const insecure = await thrown(() =>
      lean.createTokenManager({ baseUrl: "http://engage.example", rcAccessToken: "t" }),
    );
    expect(insecure.code).toBe("transport_refused");
    const header = await thrown(() => lean.createTokenManager({ rcAccessToken: "a\r\nX-Evil: 1" }));
    expect(header.code).toBe("invalid_options");
    expect(header.message).not.toContain("X-Evil");
  });

  it("gives each error its code and the link to the docs instead of the explanation", async () => {
    const options = { baseUrl: "http://engage.example", rcAccessToken: "t" };
    const leanError = await thrown(() => lean.createTokenManager(options));
    const fullError = await thrown(() => full.createTokenManager(options));
    expect(fullError.message).toContain("allowInsecureHttp");
    expect(leanError.message).not.toContain("allowInsecureHttp");
    expect(leanError.message).toMatch(
      /^transport_refused \(http:\/\/engage\.example\): see https:\/\/\S+#errors$/,
    );
    expect(leanError.code).toBe(fullError.code);
    expect(leanError.name).toBe(fullError.name);
  });

  it("fails a middleware used on a client of another origin before anything is sent", async () => {
    const auth = lean.createTokenManager({ rcAccessToken: "t" });
    const { fetch, requests } = stubFetch(() => Response.json([]));
    const client = lean.createClient({ baseUrl: "http://127.0.0.1:9", fetch });
    client.use(auth.middleware);
    const error = await thrown(() => client.GET(ACCOUNTS));
    expect(error.code).toBe("origin_mismatch");
    expect(requests).toHaveLength(0);
  });

  it("sends no redirect on, tries an idempotent call again after a 503, and never a POST", async () => {
    const { fetch, requests } = stubFetch((_, n) =>
      n === 1 ? new Response(null, { status: 503 }) : Response.json([]),
    );
    const client = lean.createClient({
      baseUrl: "http://127.0.0.1:9",
      fetch,
      sleep: noWait,
      maxRetries: 2,
      logger: {},
    });
    const { data } = await client.GET(ACCOUNTS);
    expect(data).toEqual([]);
    expect(requests.map((r) => r.redirect)).toEqual(["manual", "manual"]);

    const posts = stubFetch(() => new Response(null, { status: 503 }));
    const poster = lean.createClient({ baseUrl: "http://127.0.0.1:9", fetch: posts.fetch, sleep: noWait });
    const { response } = await poster.POST("/api/auth/token/refresh", { body: { refresh_token: "r" } });
    expect(response.status).toBe(503);
    expect(posts.requests).toHaveLength(1);
  });

  it("ends a call at its deadline and at the caller's abort", async () => {
    const hanging = async (_: Request, init?: RequestInit) =>
      new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      );
    const client = lean.createClient({ baseUrl: "http://127.0.0.1:9", fetch: hanging, maxRetries: 0 });
    const late = await thrown(() => client.GET(ACCOUNTS, { timeoutMs: 20 }));
    expect(late.code).toBe("request_timeout");
    const controller = new AbortController();
    const call = client.GET(ACCOUNTS, { signal: controller.signal });
    controller.abort(new Error("left the page"));
    expect((await thrown(() => call)).message).toBe("left the page");
  });
});

describe("the production build of every entry of @engage-voice/auth", () => {
  it("holds one set of error classes: an error of the file store is an instanceof the main entry's", async () => {
    const { code } = await bundle(
      `export { EngageVoiceAuthError } from "@engage-voice/auth";\nexport { fileStore } from "@engage-voice/auth/node";\nexport { storeFailed } from "@engage-voice/auth/store-kit";`,
      ["production"],
      "node",
    );
    const entry = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
    const error = await thrown(() => entry.fileStore(""));
    expect(error.code).toBe("invalid_options");
    expect(error).toBeInstanceOf(entry.EngageVoiceAuthError);
    expect(entry.storeFailed("read")).toBeInstanceOf(entry.EngageVoiceAuthError);
  });
});

describe("the app's imports as the budget bundles them", () => {
  it("leave out the deprecated host's calls, the Node-only file store and the store kit", async () => {
    const { code, inputs } = await bundle(APP, ["production"]);
    const text = new TextDecoder().decode(code);
    // Messages only these parts hold: minified names would not tell.
    for (const absent of [
      "The direct login",
      "API token",
      "legacyLogin() uses the deprecated host",
      "bearer_required",
      "lock file",
    ]) {
      expect(text, absent).not.toContain(absent);
    }
    expect(inputs.filter((file) => /auth\/dist\/(node|store-kit|lease)/.test(file))).toEqual([]);
    expect(inputs.filter((file) => file.includes("openapi-fetch/"))).toHaveLength(1);
  });

  it("leave out OpenTelemetry: its entry, its peer and every name it gives spans and metrics", async () => {
    for (const conditions of [["production"], []]) {
      const { code, inputs } = await bundle(APP, conditions);
      const text = new TextDecoder().decode(code);
      expect(
        inputs.filter((file) => /opentelemetry/i.test(file)),
        conditions.join(),
      ).toEqual([]);
      for (const absent of ["http.client.request.duration", "engage_voice.", "url.template", "SpanKind"]) {
        expect(text, absent).not.toContain(absent);
      }
    }
  });

  it("leave out the development-only option checks in a production build, and keep the ones that guard credentials", async () => {
    const text = async (conditions: string[]) =>
      new TextDecoder().decode((await bundle(APP, conditions)).code);
    const production = await text(["production"]);
    const development = await text([]);
    for (const check of [
      "did you mean",
      "must be an integer",
      "must be a whole number",
      "must be a function",
    ]) {
      expect(development, check).toContain(check);
      expect(production, check).not.toContain(check);
    }
    for (const guard of ["must not contain a username or password", "without a path, query or fragment"]) {
      expect(production, guard).toContain(guard);
    }
  });
});

describe("the OpenTelemetry entry as the budget bundles it", () => {
  it("holds its own code alone: no module of the other entries, its peer left to the app", async () => {
    const { inputs } = await bundle(
      `export * from "@engage-voice/auth/opentelemetry";`,
      ["production"],
      "browser",
      ["@opentelemetry/api"],
    );
    expect(inputs.map((file) => file.replace(/^.*\/auth\//, "auth/"))).toEqual([
      "auth/dist/production/opentelemetry.js",
      "entry.js",
    ]);
    const row = sizeLimit.find((check) => check.path === "size/auth-opentelemetry.js");
    expect(row?.ignore).toEqual(["@opentelemetry/api"]);
  });
});

/** Public packages with no browser bundle to budget, and why. */
const EXCLUDED: Record<string, string> = {
  "@engage-voice/cli": "node-only: a command line (bin engage-voice) that reads files and the environment",
  "@engage-voice/store-redis": "node-only: a token store on a Redis server over TCP (node-redis)",
  "@engage-voice/sandbox": "a Node server and test doubles loaded by tests, never shipped in an app",
  "@engage-voice/spec": "the OpenAPI document as JSON and YAML data, no code to bundle",
};

describe("the size budgets", () => {
  it("cover every public package of the workspace with both limits, or exclude it with the reason", async () => {
    const names = (await publicPackages(fileURLToPath(new URL("../../..", import.meta.url)))).map(
      (p) => p.name,
    );
    expect(names).toEqual(expect.arrayContaining(["@engage-voice/client", "@engage-voice/auth"]));
    const limited = new Set(sizeLimit.filter((check) => check.limit).map((check) => check.name));
    const missing = names.filter(
      (name) =>
        !(name in EXCLUDED) && !(limited.has(`${name} (minified)`) && limited.has(`${name} (min+gzip)`)),
    );
    expect(missing, "add the package to .size-limit.ts, or to EXCLUDED here with the reason").toEqual([]);
    expect(Object.keys(EXCLUDED).filter((name) => !names.includes(name))).toEqual([]);
  });
});

type Factories = Record<
  "createTokenManager" | "legacyLogin" | "apiTokens" | "apiTokenMiddleware",
  (o: object) => unknown
>;
/** The auth package's main entry as a bundler's production build takes it. */
const productionAuth: Factories = await (async () => {
  const source = `export { createTokenManager, legacyLogin, apiTokens, apiTokenMiddleware } from "@engage-voice/auth";`;
  const { code, inputs } = await bundle(source, ["production"], "neutral");
  expect(inputs.some((input) => input.includes("/dist/production/"))).toBe(true);
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
})();

describe("the production build of every factory that sends a credential", () => {
  const production = productionAuth;
  const base = "http://engage.example";
  const cases: [keyof Factories, object][] = [
    ["createTokenManager", { baseUrl: base, rcAccessToken: "parent-token" }],
    ["legacyLogin", { baseUrl: base, username: "u", password: "secret-password", platformId: "p" }],
    ["apiTokens", { baseUrl: base, auth: { accessToken: "access-token" } }],
    ["apiTokenMiddleware", { baseUrl: base }],
  ];

  it.each(
    cases.flatMap(([factory, options]) =>
      ["false", "0", {}, 1].map((flag) => [factory, options, flag] as const),
    ),
  )("%s refuses allowInsecureHttp %j instead of reading it as true", async (factory, options, flag) => {
    const make = production[factory];
    const given = { ...options, allowInsecureHttp: flag };
    const error = await thrown(() =>
      factory === "apiTokenMiddleware"
        ? (make as unknown as (token: string, o: object) => unknown)("aws80:0a1b2c3d-api-token", given)
        : make(given),
    );
    expect(error.code).toBe("invalid_options");
    expect(error.message).toMatch(/allowInsecureHttp/);
  });
});
