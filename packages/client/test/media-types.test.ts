// What the document says about media types, applied without the caller's help: form bodies are
// form-encoded, success bodies are parsed by their Content-Type.
import { describe, expect, it } from "vitest";
import { createClient, createLegacyClient, ResponseParseError } from "../src/index.js";
import { stubFetch } from "./stub-fetch.js";

const tricky = "a b+c/d=e&f%g ü€😀";

describe("form operations", () => {
  it("send application/x-www-form-urlencoded without the caller setting a header", async () => {
    const { fetch, requests } = stubFetch(() => Response.json({ accessToken: "x" }));
    const client = createClient({ fetch });
    await client.POST("/api/auth/login/rc/accesstoken", {
      params: { query: { includeRefresh: true } },
      body: { rcAccessToken: tricky, rcTokenType: "Bearer" },
    });
    const [request] = requests;
    expect(request?.headers.get("Content-Type")).toBe("application/x-www-form-urlencoded");
    expect(request?.url).toBe(
      "https://engage.ringcentral.com/api/auth/login/rc/accesstoken?includeRefresh=true",
    );
    const form = new URLSearchParams(await request?.text());
    expect(form.get("rcAccessToken")).toBe(tricky);
    expect(form.get("rcTokenType")).toBe("Bearer");
  });

  it("keep every value intact through the refresh form", async () => {
    const { fetch, requests } = stubFetch(() => Response.json({ accessToken: "x", refreshToken: "y" }));
    await createClient({ fetch }).POST("/api/auth/token/refresh", {
      body: { refresh_token: tricky, rcTokenType: "Bearer" },
    });
    expect(new URLSearchParams(await requests[0]?.text()).get("refresh_token")).toBe(tricky);
  });

  it("respect a Content-Type the caller sets", async () => {
    const { fetch, requests } = stubFetch();
    await createClient({ fetch }).POST("/api/auth/token/refresh", {
      body: { refresh_token: "r", rcTokenType: "Bearer" },
      headers: { "content-type": "application/json" },
    });
    expect(requests[0]?.headers.get("Content-Type")).toBe("application/json");
    expect(JSON.parse((await requests[0]?.text()) ?? "")).toEqual({
      refresh_token: "r",
      rcTokenType: "Bearer",
    });
  });

  it("reject a nested value with an error that names the field", async () => {
    const { fetch } = stubFetch();
    await expect(
      createClient({ fetch }).POST("/api/auth/token/refresh", {
        // @ts-expect-error: a form field cannot be an object
        body: { refresh_token: { nested: true }, rcTokenType: "Bearer" },
      }),
    ).rejects.toThrow(/Form field "refresh_token"/);
  });

  it("leave JSON alone for operations without a form body", async () => {
    const { fetch, requests } = stubFetch();
    await createClient({ fetch }).GET("/voice/api/v1/admin/accounts");
    expect(requests[0]?.headers.get("Content-Type")).toBeNull();
  });
});

describe("success bodies", () => {
  it("come back as a string from text/plain", async () => {
    const token = "aws80:c2353445-7d1c-4b51-9a2e-5f0c1e8b6a47";
    const { fetch } = stubFetch(
      () => new Response(token, { headers: { "Content-Type": "text/plain;charset=UTF-8" } }),
    );
    const { data } = await createLegacyClient({ fetch }).POST("/voice/api/v1/admin/token");
    expect(data).toBe(token);
  });

  it("come back as JSON from application/json with a charset", async () => {
    const { fetch } = stubFetch(
      () => new Response('["a:1"]', { headers: { "Content-Type": "application/json;charset=UTF-8" } }),
    );
    const { data } = await createLegacyClient({ fetch }).GET("/voice/api/v1/admin/token");
    expect(data).toEqual(["a:1"]);
  });

  it("are undefined when empty", async () => {
    const { fetch } = stubFetch(() => new Response(null, { status: 204 }));
    const { data, error } = await createLegacyClient({ fetch }).DELETE(
      "/voice/api/v1/admin/token/{apiToken}",
      {
        params: { path: { apiToken: "a:1" } },
      },
    );
    expect(data).toBeUndefined();
    expect(error).toBeUndefined();
  });

  it("raise a typed error, without quoting the body, when JSON is malformed", async () => {
    const secret = "eyJsecret-refresh-token";
    const { fetch } = stubFetch(
      () => new Response(`{"refreshToken":"${secret}"`, { headers: { "Content-Type": "application/json" } }),
    );
    const failure = await createClient({ fetch })
      .POST("/api/auth/token/refresh", { body: { refresh_token: "r", rcTokenType: "Bearer" } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ResponseParseError);
    expect(failure).toMatchObject({ code: "response_parse_error", status: 200 });
    expect(JSON.stringify(failure) + String(failure) + (failure as Error).stack).not.toContain(secret);
  });

  it("honour an explicit parseAs", async () => {
    const { fetch } = stubFetch(() => Response.json([{ accountId: "1" }]));
    const { data } = await createClient({ fetch }).GET("/voice/api/v1/admin/accounts", { parseAs: "text" });
    expect(data).toBe('[{"accountId":"1"}]');
  });

  it("leave a 401 text body as the string error", async () => {
    const { fetch } = stubFetch(
      () => new Response("Jwt is expired", { status: 401, headers: { "Content-Type": "text/plain" } }),
    );
    const { error, data } = await createClient({ fetch }).GET("/voice/api/v1/admin/users");
    expect(data).toBeUndefined();
    expect(error).toBe("Jwt is expired");
  });
});
