import { describe, expect, it } from "vitest";
import { ClientOptionsError, createClient, createLegacyClient, isApiError } from "../src/index.js";
import { stubFetch } from "./stub-fetch.js";

describe("client options", () => {
  it("default to each host's default server", async () => {
    const { fetch, requests } = stubFetch();
    await createClient({ fetch }).GET("/voice/api/v1/admin/accounts");
    await createLegacyClient({ fetch }).GET("/voice/api/v1/admin/token");
    expect(requests.map((r) => r.url)).toEqual([
      "https://engage.ringcentral.com/voice/api/v1/admin/accounts",
      "https://portal.vacd.biz/voice/api/v1/admin/token",
    ]);
  });

  it("take another host and pass openapi-fetch options through", async () => {
    const { fetch, requests } = stubFetch();
    const client = createClient({
      baseUrl: "https://ringcx.ringcentral.com/",
      fetch,
      headers: { "X-Trace": "1" },
    });
    await client.GET("/voice/api/v1/admin/users", { params: { query: { flatten: true } } });
    expect(requests[0]?.url).toBe("https://ringcx.ringcentral.com/voice/api/v1/admin/users?flatten=true");
    expect(requests[0]?.headers.get("X-Trace")).toBe("1");
  });

  it("do not follow redirects unless told to: a credential stays on its host", async () => {
    const { fetch, requests } = stubFetch();
    await createClient({ fetch }).GET("/voice/api/v1/admin/accounts");
    await createLegacyClient({ fetch }).GET("/voice/api/v1/admin/token");
    await createClient({ fetch, redirect: "follow" }).GET("/voice/api/v1/admin/accounts");
    expect(requests.map((r) => r.redirect)).toEqual(["manual", "manual", "follow"]);
  });

  it("encode a permanent token in the delete path", async () => {
    const { fetch, requests } = stubFetch(
      () => new Response("true", { headers: { "Content-Type": "text/plain" } }),
    );
    await createLegacyClient({ fetch }).DELETE("/voice/api/v1/admin/token/{apiToken}", {
      params: { path: { apiToken: "aws80:c235/../x" } },
    });
    expect(requests[0]?.url).toBe("https://portal.vacd.biz/voice/api/v1/admin/token/aws80%3Ac235%2F..%2Fx");
  });

  it.each(["not a url", "ftp://example.com", "/relative"])(
    "refuse baseUrl %j with a typed error",
    (baseUrl) => {
      expect(() => createClient({ baseUrl })).toThrow(ClientOptionsError);
    },
  );

  const errorOf = (make: () => unknown): ClientOptionsError => {
    try {
      make();
    } catch (e) {
      return e as ClientOptionsError;
    }
    throw new Error("expected a ClientOptionsError");
  };

  it.each([
    ["https://alice:SECRET@engage.ringcentral.com", /username or password/],
    ["https://:SECRET@engage.ringcentral.com/", /username or password/],
    ["https://alice@engage.ringcentral.com", /username or password/],
  ])("refuse credentials in baseUrl %j without quoting them", (baseUrl, reason) => {
    for (const make of [createClient, createLegacyClient]) {
      const error = errorOf(() => make({ baseUrl }));
      expect(error).toBeInstanceOf(ClientOptionsError);
      expect(error.code).toBe("invalid_options");
      expect(error.message).toMatch(reason);
      expect(error.message).not.toContain("SECRET");
      expect(error.message).not.toContain("alice");
    }
  });

  it.each([
    "https://engage.ringcentral.com/other/path",
    "https://engage.ringcentral.com/voice/api/v1/",
    "https://engage.ringcentral.com//",
    "https://engage.ringcentral.com/?q=1",
    "https://engage.ringcentral.com?q=1",
    "https://engage.ringcentral.com/?",
    "https://engage.ringcentral.com/#f",
    "https://engage.ringcentral.com#",
  ])("refuse baseUrl %j: a path, query or fragment sends the token elsewhere on the host", (baseUrl) => {
    for (const make of [createClient, createLegacyClient]) {
      const error = errorOf(() => make({ baseUrl }));
      expect(error).toBeInstanceOf(ClientOptionsError);
      expect(error.code).toBe("invalid_options");
      expect(error.message).toBe(
        "baseUrl must be an origin without a path, query or fragment, such as https://engage.ringcentral.com: the API's paths start at the host root",
      );
    }
  });

  it.each([
    "https://engage.ringcentral.com",
    "https://engage.ringcentral.com/",
    "https://ringcx.ringcentral.com/",
    "https://portal.vacd.biz",
    "http://127.0.0.1:4010",
  ])("take the origin %j with or without its slash", async (baseUrl) => {
    const { fetch, requests } = stubFetch();
    await createClient({ baseUrl, fetch }).GET("/voice/api/v1/admin/accounts");
    expect(requests[0]?.url).toBe(`${new URL(baseUrl).origin}/voice/api/v1/admin/accounts`);
  });

  it("name every bad option with the same code", () => {
    for (const options of [
      null,
      { baseUrl: 1 },
      { baseUrl: "not a url" },
      { baseUrl: "ftp://example.com" },
    ]) {
      expect(errorOf(() => createClient(options as never)).code).toBe("invalid_options");
    }
  });

  it("do not echo credentials of a bad baseUrl", () => {
    const error = (() => {
      try {
        createClient({ baseUrl: "ftp://user:hunter2@example.com" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).not.toContain("hunter2");
  });

  it("run middleware as openapi-fetch does", async () => {
    const { fetch, requests } = stubFetch();
    const client = createClient({ fetch });
    client.use({
      onRequest: ({ request }) => {
        request.headers.set("Authorization", "Bearer t");
        return request;
      },
    });
    await client.GET("/voice/api/v1/admin/accounts");
    expect(requests[0]?.headers.get("Authorization")).toBe("Bearer t");
  });
});

describe("isApiError", () => {
  it("tells the JSON error body from a text error", () => {
    expect(isApiError({ errorCode: "access.denied.exception", generalMessage: "no" })).toBe(true);
    expect(isApiError("Jwt is expired")).toBe(false);
    expect(isApiError({ errorCode: 1 })).toBe(false);
  });
});
