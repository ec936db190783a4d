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
