// Once a call has returned, its caller's signal still ends the body the caller reads, as it ends a
// plain fetch's: through `auth.fetch`, `auth.client()` and the middleware. The API's bodies behave as
// undici's: a first chunk, then an error with the reason of the call's signal when it aborts.
import { createClient } from "@engage-voice/client";
import { describe, expect, it } from "vitest";
import { type Api, STUB, stubManager } from "./stub-exchange.js";

const USERS = "/voice/api/v1/admin/users";
/** A read the abort does not end goes on until this deadline, which ends it with another error. */
const DEADLINE = 1_000;

const streaming: Api = (_, init) => {
  const signal = init?.signal;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array([1]));
      signal?.addEventListener("abort", () => controller.error(signal.reason), { once: true });
    },
  });
  return Promise.resolve(new Response(body));
};

type Auth = ReturnType<typeof stubManager>;

describe("the caller's signal ends the body it reads", () => {
  it.each([
    [
      "auth.fetch(url, { signal })",
      ({ auth }: Auth, signal: AbortSignal) => auth.fetch(`${STUB.baseUrl}${USERS}`, { signal }),
    ],
    [
      "auth.fetch(request) with the signal on the request",
      ({ auth }: Auth, signal: AbortSignal) => auth.fetch(new Request(`${STUB.baseUrl}${USERS}`, { signal })),
    ],
    [
      "auth.client() with parseAs stream",
      async ({ auth }: Auth, signal: AbortSignal) =>
        (await auth.client().GET(USERS, { signal, parseAs: "stream" })).response,
    ],
    [
      "the middleware on a client, with parseAs stream",
      async ({ auth, policy, fetch }: Auth, signal: AbortSignal) => {
        const client = createClient({ ...policy, baseUrl: STUB.baseUrl, fetch, timeoutMs: DEADLINE });
        client.use(auth.middleware);
        return (await client.GET(USERS, { signal, parseAs: "stream" })).response;
      },
    ],
  ])("through %s", async (_, call) => {
    const manager = stubManager(streaming, { timeoutMs: DEADLINE });
    const controller = new AbortController();
    const response = await call(manager, controller.signal);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const next = reader.read();
    controller.abort();
    await expect(next).rejects.toMatchObject({ name: "AbortError" });
  });
});
