// An error answer's body is read up to MAX_ANSWER_BYTES, once per try, and the rest cancelled: a
// 500 with a body of hundreds of MB must not cost that much memory. The stub bodies count what is
// pulled from them; the loopback host sends a large body over a real socket.
import type { ServerResponse } from "node:http";
import { startLoopbackHost, stoppedAfterEach, underGarbageCollection } from "@engage-voice/test-kit";
import { describe, expect, it } from "vitest";
import { createClient, MAX_ANSWER_BYTES } from "../src/index.js";

const USERS = "/voice/api/v1/admin/users";
const CHUNK = 64 * 1024;
const quiet = { logger: {}, random: () => 0, sleep: async () => {} };

/** Error answers of `total` bytes made as they are read, which count what was pulled and cancelled. */
function largeErrors(status: number, total: number) {
  const bodies: { pulled: number; cancelled: boolean }[] = [];
  const fetch = async () => {
    const seen = { pulled: 0, cancelled: false };
    bodies.push(seen);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (seen.pulled >= total) {
          controller.close();
          return;
        }
        seen.pulled += CHUNK;
        controller.enqueue(new Uint8Array(CHUNK).fill(120));
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return new Response(body, { status, headers: { "Content-Type": "text/plain" } });
  };
  return { fetch, bodies };
}

describe("an error answer's body", () => {
  it("is read up to MAX_ANSWER_BYTES, and the rest is cancelled", async () => {
    const { fetch, bodies } = largeErrors(500, 64 * MAX_ANSWER_BYTES);
    const { error, response } = await createClient({ fetch, ...quiet, maxRetries: 0 }).GET(USERS);
    expect(response.status).toBe(500);
    expect(String(error)).toHaveLength(MAX_ANSWER_BYTES);
    expect(bodies).toEqual([{ pulled: expect.any(Number), cancelled: true }]);
    // The stream may pull a chunk ahead of the read.
    expect(bodies[0]?.pulled).toBeLessThanOrEqual(MAX_ANSWER_BYTES + 2 * CHUNK);
  });

  it("is capped on every try of a retried call", async () => {
    const { fetch, bodies } = largeErrors(503, 64 * MAX_ANSWER_BYTES);
    const { response } = await createClient({ fetch, ...quiet, maxRetries: 2 }).GET(USERS);
    expect(response.status).toBe(503);
    expect(bodies).toHaveLength(3);
    for (const body of bodies) {
      expect(body.cancelled).toBe(true);
      expect(body.pulled).toBeLessThanOrEqual(MAX_ANSWER_BYTES + 2 * CHUNK);
    }
  });

  it("up to the cap is left as the server sent it, and a success body is never cut", async () => {
    const small = createClient({
      fetch: async () => Response.json({ errorCode: "x.y", generalMessage: "no" }, { status: 400 }),
      ...quiet,
    });
    expect((await small.GET(USERS)).error).toEqual({ errorCode: "x.y", generalMessage: "no" });
    const exact = largeErrors(500, MAX_ANSWER_BYTES);
    expect(String((await createClient({ fetch: exact.fetch, ...quiet }).GET(USERS)).error)).toHaveLength(
      MAX_ANSWER_BYTES,
    );
    const large = largeErrors(200, 2 * MAX_ANSWER_BYTES);
    const { data } = await createClient({ fetch: large.fetch, ...quiet }).GET(USERS, { parseAs: "text" });
    expect(data).toHaveLength(2 * MAX_ANSWER_BYTES);
  });
});

const open = stoppedAfterEach(startLoopbackHost);

describe("over a real connection", () => {
  it("a 500 with a large body: the cap is read, the connection closed before the body's end", async () => {
    const total = 128 * MAX_ANSWER_BYTES;
    let sent = 0;
    const answer = (response: ServerResponse) => {
      response.writeHead(500, { "Content-Type": "text/plain" });
      const chunk = Buffer.alloc(CHUNK, 120);
      const write = () => {
        while (sent < total && !response.destroyed) {
          sent += chunk.length;
          if (!response.write(chunk)) {
            response.once("drain", write);
            return;
          }
        }
        response.end();
      };
      write();
    };
    const { base: baseUrl, firstConnectionClosed } = await open(answer);
    const { error, response } = await createClient({ baseUrl, ...quiet, maxRetries: 0 }).GET(USERS);
    expect(String(error)).toHaveLength(MAX_ANSWER_BYTES);
    expect(response.url).toBe(`${baseUrl}${USERS}`);
    await underGarbageCollection(firstConnectionClosed);
    expect(sent).toBeLessThan(total);
  });
});
