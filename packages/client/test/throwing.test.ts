// orThrow(): a call's data, or its failed answer as the error class of its status family.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  ApiResponseError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createClient,
  NotFoundError,
  orThrow,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  type User,
} from "../src/index.js";

const BASE = "https://engage.example.test";
const answering = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  createClient({
    baseUrl: BASE,
    maxRetries: 0,
    // As fetch answers: the response knows the URL it came from.
    fetch: async (request: Request) =>
      Object.defineProperty(
        new Response(JSON.stringify(body), {
          status,
          headers: { "Content-Type": "application/json", ...headers },
        }),
        "url",
        { value: request.url },
      ),
  });

describe("orThrow", () => {
  it("gives the data of a success, typed by the operation", async () => {
    const users = await orThrow(answering(200, [{ userId: 1 }]).GET("/voice/api/v1/admin/users"));
    expectTypeOf(users).toEqualTypeOf<User[]>();
    expect(users).toEqual([{ userId: 1 }]);
  });

  it.each<[number, typeof ApiResponseError]>([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [429, RateLimitError],
    [500, ServerError],
    [503, ServerError],
    [418, ApiResponseError],
  ])("throws a %i as %o, with its status, body and response", async (status, Type) => {
    const body = { errorCode: "platform.some.error", generalMessage: "secret-echo-7f3a", details: null };
    const error = await orThrow(answering(status, body).GET("/voice/api/v1/admin/users")).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Type);
    expect(error).toBeInstanceOf(ApiResponseError);
    expect(error).toMatchObject({ status, body, errorCode: "platform.some.error" });
    // The message names the path's template and the code, never the answer's other fields.
    expect((error as Error).message).toBe(
      `/voice/api/v1/admin/users answered ${status} (platform.some.error)`,
    );
    expect((error as Error).message).not.toContain("secret-echo");
  });

  it("gives a 429's Retry-After", async () => {
    const error = await orThrow(
      answering(429, { errorCode: "rate", generalMessage: "" }, { "Retry-After": "7" }).GET(
        "/voice/api/v1/admin/users",
      ),
    ).catch((e: unknown) => e);
    expect((error as RateLimitError).retryAfterMs).toBe(7_000);
  });

  it("leaves a call that got no answer as it rejects without it", async () => {
    const client = createClient({
      baseUrl: BASE,
      maxRetries: 0,
      fetch: async () => {
        throw new TypeError("fetch failed");
      },
    });
    await expect(orThrow(client.GET("/voice/api/v1/admin/users"))).rejects.not.toBeInstanceOf(
      ApiResponseError,
    );
  });
});
