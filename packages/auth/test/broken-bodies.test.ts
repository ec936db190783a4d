// Answers whose body breaks off while it is read: the connection dropped mid-answer. A token call's
// answer is read whole, an API call's only for its first bytes (`Jwt is expired`); neither may leave
// an unhandled rejection or a stuck call behind.
import { describe, expect, it, vi } from "vitest";
import { createTokenManager, memoryStore, NetworkError } from "../src/index.js";
import { BASE, fakeClock, fakeServer, hostsFor } from "./fake-server.js";

/** A body that sends a few bytes, then fails as a dropped connection does. */
function breakingBody(first: string) {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
    },
    pull(controller) {
      controller.error(new TypeError("terminated"));
    },
  });
}

function world(brokenPath: string, status: number) {
  const { server, managerOn } = hostsFor();
  const broken: string[] = [];
  const { auth } = managerOn(undefined, {
    fetch: async (request) => {
      const response = await server.fetch(request);
      if (new URL(request.url).pathname.endsWith(brokenPath) && broken.length === 0) {
        broken.push(request.url);
        return new Response(breakingBody('{"accessToken":"e'), { status, headers: response.headers });
      }
      return response;
    },
    random: undefined,
    retries: 0,
  });
  return { auth, server, broken };
}

describe("an answer whose body breaks off", () => {
  it("a token answer: the token call fails as a NetworkError, and the next one succeeds", async () => {
    const { auth, broken } = world("/accesstoken", 200);
    const error = await auth.getAccessToken().catch((e: unknown) => e);
    expect(broken).toHaveLength(1);
    expect(error).toBeInstanceOf(NetworkError);
    expect(await auth.getAccessToken()).toMatch(/^ey/);
  });

  it("an API call's 401: read for `Jwt is expired` as far as it goes, then handed to the caller as it is", async () => {
    const { auth, server, broken } = world("/admin/accounts", 401);
    const response = await auth.fetch(`${BASE}/voice/api/v1/admin/accounts`);
    expect(broken).toHaveLength(1);
    expect(response.status).toBe(401);
    // Not taken for an expiry: no renewal was made for it.
    expect(server.totalTokenCalls()).toBe(1);
  });
});

describe("the default logger", () => {
  it("reports a failed save on console.error, without the tokens", async () => {
    const clock = fakeClock();
    const server = fakeServer({ clock });
    const store = memoryStore();
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const auth = createTokenManager({
        baseUrl: BASE,
        rcAccessToken: server.parentToken,
        fetch: server.fetch,
        clock,
        tenant: "acme",
        store: {
          ...store,
          set: async () => {
            throw new Error("disk full");
          },
        },
      });
      const token = await auth.getAccessToken();
      expect(error).toHaveBeenCalledTimes(1);
      const [message] = error.mock.calls[0] as [string];
      expect(message).toMatch(/^The token store could not save the new tokens/);
      expect(message).not.toContain(token);
    } finally {
      error.mockRestore();
    }
  });
});
