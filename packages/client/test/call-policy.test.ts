// The call policy of every client: one deadline, the caller's abort, retries of idempotent calls.
// Waits go through an injected sleep, so no test waits on the wall clock for a retry.
import { getEventListeners } from "node:events";
import {
  drip,
  type HostAnswer,
  neverAnswer,
  startLoopbackHost,
  stoppedAfterEach,
  underGarbageCollection,
} from "@engage-voice/test-kit";
import { describe, expect, it } from "vitest";
import { tryLine } from "../src/call-policy.js";
import {
  type CallObserver,
  ClientOptionsError,
  callDefaults,
  createClient,
  createLegacyClient,
  RequestTimeoutError,
  retriedStatuses,
  retryAfterMs,
} from "../src/index.js";
import { callPolicyOf, runCall, TRY_LINE } from "../src/internal.js";
import { MAX_RETRY_AFTER_MS } from "../src/retry-after.js";
import { stubFetch } from "./stub-fetch.js";

const USERS = "/voice/api/v1/admin/users";

/** Answers in turn; the last one repeats. */
function answers(...list: (() => Response | Promise<Response>)[]) {
  let i = 0;
  return stubFetch(() => (list[Math.min(i++, list.length - 1)] as () => Response)());
}

/** A sleep that records each wait and returns at once. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

const quiet = { logger: {}, random: () => 0 };

/**
 * A fetch whose body, as undici's does, sends a first chunk and then errors with the reason of the
 * signal given beside the request when it aborts (and not before).
 */
const streaming = (_: Request, init?: RequestInit) => {
  const signal = init?.signal;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array([1]));
      signal?.addEventListener("abort", () => controller.error(signal.reason), { once: true });
    },
  });
  return Promise.resolve(new Response(body));
};

/** Reads a body to its end. */
async function drain(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  while (!(await reader.read()).done) {
    // read on
  }
}

describe("the debug line of a try", () => {
  it("has the shape TRY_LINE gives its readers, answered or not, naming the call", () => {
    for (const status of [200, 503, undefined]) {
      const line = tryLine("GET /voice/api/v1/admin/users", status, 41.4);
      expect(TRY_LINE.exec(line)?.[1], line).toBe("GET /voice/api/v1/admin/users");
    }
    expect(tryLine("GET /voice/api/v1/admin/users", undefined, 41.4)).toBe(
      "GET /voice/api/v1/admin/users got no answer in 41 ms",
    );
  });
});

describe("retries", () => {
  it.each(retriedStatuses)(
    "a GET answered %i goes again, with backoff, and gets the success",
    async (status) => {
      const { fetch, requests } = answers(
        () => new Response("busy", { status }),
        () => new Response("busy", { status }),
        () => Response.json([{ userId: 1 }]),
      );
      const { waits, sleep } = recordingSleep();
      const { data, response } = await createClient({ fetch, sleep, ...quiet }).GET(USERS);
      expect(response.status).toBe(200);
      expect(data).toEqual([{ userId: 1 }]);
      expect(requests).toHaveLength(3);
      // random() = 0: half of firstRetryMs × 2^retry.
      expect(waits).toEqual([callDefaults.firstRetryMs / 2, callDefaults.firstRetryMs]);
    },
  );

  it("a connection failure on a GET goes again", async () => {
    const { fetch, requests } = answers(
      () => Promise.reject(new TypeError("fetch failed")),
      () => Response.json([]),
    );
    const { sleep } = recordingSleep();
    const { response } = await createClient({ fetch, sleep, ...quiet }).GET(USERS);
    expect(response.status).toBe(200);
    expect(requests).toHaveLength(2);
  });

  it("a DELETE of a permanent token goes again; a POST never does", async () => {
    const { fetch, requests } = answers(() => new Response("", { status: 503 }));
    const { sleep } = recordingSleep();
    const legacy = createLegacyClient({ fetch, sleep, ...quiet });
    await legacy.DELETE("/voice/api/v1/admin/token/{apiToken}", { params: { path: { apiToken: "a:1" } } });
    expect(requests).toHaveLength(1 + callDefaults.maxRetries);
    requests.length = 0;
    const { response } = await legacy.POST("/voice/api/v1/admin/token");
    expect(response.status).toBe(503);
    expect(requests).toHaveLength(1);
  });

  it("stops after maxRetries and hands the last answer over", async () => {
    const { fetch, requests } = answers(() => new Response("", { status: 502 }));
    const { sleep } = recordingSleep();
    const { response } = await createClient({ fetch, sleep, ...quiet, maxRetries: 4 }).GET(USERS);
    expect(response.status).toBe(502);
    expect(requests).toHaveLength(5);
  });

  it("is off with maxRetries 0, on the client or on one call", async () => {
    const { fetch, requests } = answers(() => new Response("", { status: 503 }));
    const { sleep } = recordingSleep();
    await createClient({ fetch, sleep, ...quiet, maxRetries: 0 }).GET(USERS);
    expect(requests).toHaveLength(1);
    await createClient({ fetch, sleep, ...quiet }).GET(USERS, { maxRetries: 0 });
    expect(requests).toHaveLength(2);
  });

  it("a 4xx other than 408 and 429 is not tried again", async () => {
    const { fetch, requests } = answers(() => new Response("Jwt is expired", { status: 401 }));
    await createClient({ fetch, ...quiet }).GET(USERS);
    expect(requests).toHaveLength(1);
  });

  it("waits Retry-After when given, and not at all when it is longer than maxRetryWaitMs", async () => {
    const { fetch, requests } = answers(
      () => new Response("", { status: 429, headers: { "Retry-After": "3" } }),
      () => Response.json([]),
    );
    const { waits, sleep } = recordingSleep();
    await createClient({ fetch, sleep, ...quiet }).GET(USERS);
    expect(waits).toEqual([3_000]);
    expect(requests).toHaveLength(2);

    const longer = String(callDefaults.maxRetryWaitMs / 1000 + 1);
    const slow = answers(() => new Response("", { status: 429, headers: { "Retry-After": longer } }));
    const { response } = await createClient({ fetch: slow.fetch, sleep, ...quiet }).GET(USERS);
    expect(response.status).toBe(429);
    expect(slow.requests).toHaveLength(1);
  });

  it("waits a Retry-After in full plus jitter: callers told the same wait come back spread over the jitter", async () => {
    const waits: number[] = [];
    const callers = 200;
    for (let i = 0; i < callers; i++) {
      const { fetch } = answers(
        () => new Response("", { status: 503, headers: { "Retry-After": "1" } }),
        () => Response.json([]),
      );
      const sleep = async (ms: number) => void waits.push(ms);
      // Each caller's own random source, spread over [0, 1).
      await createClient({ fetch, sleep, logger: {}, random: () => i / callers }).GET(USERS);
    }
    expect(waits).toHaveLength(callers);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(1_000);
      expect(wait).toBeLessThan(1_000 + callDefaults.retryAfterJitterMs);
    }
    expect(new Set(waits).size).toBe(callers);
    expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan(callDefaults.retryAfterJitterMs * 0.99);
  });

  it("does not start a wait that would end past the deadline", async () => {
    const { fetch, requests } = answers(
      () => new Response("", { status: 503, headers: { "Retry-After": "20" } }),
    );
    const { waits, sleep } = recordingSleep();
    const { response } = await createClient({ fetch, sleep, ...quiet, timeoutMs: 10_000 }).GET(USERS);
    expect(response.status).toBe(503);
    expect(waits).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it("logs each retry with the operation's path template, never its values", async () => {
    const lines: string[] = [];
    const { fetch } = answers(
      () => new Response("", { status: 503 }),
      () => new Response("true", { headers: { "Content-Type": "text/plain" } }),
    );
    const { sleep } = recordingSleep();
    await createLegacyClient({
      fetch,
      sleep,
      random: () => 0,
      logger: { warn: (l) => lines.push(l) },
    }).DELETE("/voice/api/v1/admin/token/{apiToken}", {
      params: { path: { apiToken: "aws80:SECRET-TOKEN" } },
    });
    expect(lines).toEqual([
      "DELETE /voice/api/v1/admin/token/{apiToken} answered 503: trying again in 250 ms (retry 1 of 2)",
    ]);
  });
});

describe("Retry-After", () => {
  const at = (value: string, date?: string) =>
    retryAfterMs(
      new Response(null, { headers: { "Retry-After": value, ...(date ? { Date: date } : {}) } }),
      0,
    );

  it.each([
    ["0", 0],
    ["7", 7_000],
    ["3600", 3_600_000],
    ["9999999999", MAX_RETRY_AFTER_MS],
    ["99999999999", MAX_RETRY_AFTER_MS],
    ["999999999999999999999999", MAX_RETRY_AFTER_MS],
  ])("reads %j seconds as %i ms: a longer wait never reads as a shorter one", (value, ms) => {
    expect(at(value)).toBe(ms);
  });

  it.each([
    ["an IMF-fixdate", "Wed, 21 Oct 2026 07:28:30 GMT", "Wed, 21 Oct 2026 07:28:00 GMT", 30_000],
    ["an RFC 850 date", "Wednesday, 21-Oct-26 07:28:30 GMT", "Wed, 21 Oct 2026 07:28:00 GMT", 30_000],
    ["an asctime date", "Wed Oct 21 07:28:30 2026", "Wed, 21 Oct 2026 07:28:00 GMT", 30_000],
    ["a date already past", "Wed, 21 Oct 2026 07:27:00 GMT", "Wed, 21 Oct 2026 07:28:00 GMT", 0],
    [
      "a date hours away",
      "Thu, 22 Oct 2026 07:28:00 GMT",
      "Wed, 21 Oct 2026 07:28:00 GMT",
      MAX_RETRY_AFTER_MS,
    ],
    ["a date against an unreadable Date (read against now)", "Thu, 01 Jan 1970 00:00:09 GMT", "soon", 9_000],
  ])("reads %s against the answer's own Date", (_, value, date, ms) => {
    expect(at(value, date)).toBe(ms);
  });

  it.each([
    "",
    "-5",
    "1.5",
    "7, 8",
    "soon",
    "+7",
    "0x10",
    "Wed, 21 Oct 2026 07:28:30 UTC",
    "2026-10-21T07:28:30Z",
  ])("reads %j as unknown", (value) => {
    expect(at(value)).toBeUndefined();
  });
});

const open = stoppedAfterEach(startLoopbackHost);
/** A host on 127.0.0.1 whose answers `answer` writes: nothing ends unless it says so. */
const listen = async (answer: HostAnswer) => (await open(answer)).base;

describe("the deadline", () => {
  it("ends a call whose host never answers, naming the operation and the deadline", async () => {
    const baseUrl = await listen(neverAnswer);
    const call = createClient({ baseUrl, ...quiet, timeoutMs: 300 }).GET(USERS);
    await expect(call).rejects.toThrow(RequestTimeoutError);
    await expect(call).rejects.toThrow(`GET ${USERS} did not finish within 300 ms`);
  });

  it("covers the body: headers at once and a body that drips for ever time out, while the collector runs", async () => {
    const baseUrl = await listen(drip());
    const call = createClient({ baseUrl, ...quiet, timeoutMs: 400 }).GET(USERS);
    await expect(underGarbageCollection(call)).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it("a call's own timeoutMs wins over its client's", async () => {
    const baseUrl = await listen(neverAnswer);
    const call = createClient({ baseUrl, ...quiet, timeoutMs: 600_000 }).GET(USERS, { timeoutMs: 200 });
    await expect(call).rejects.toMatchObject({ name: "RequestTimeoutError", timeoutMs: 200 });
  });

  it("covers the waits between tries", async () => {
    const { fetch } = answers(() => new Response("", { status: 503 }));
    // A wait that never ends on its own: only the deadline can end the call. The clock stands still,
    // so the wait is started however long the first try took on a busy machine.
    const sleep = () => new Promise<void>(() => {});
    const clock = { now: () => 0 };
    const call = createClient({ fetch, sleep, clock, ...quiet, timeoutMs: 300 }).GET(USERS);
    await expect(call).rejects.toThrow(RequestTimeoutError);
  });
});

// The deadline and the caller's abort reach the socket, not only the caller's wait: a call given up
// on must not hold a connection (and, in Node, the process) until the host answers. Without a
// timeout of its own, the test would hang where the connection stays open.
describe("what an ended call closes", () => {
  it.each([
    ["no answer", neverAnswer, {}],
    ["a body that drips", drip(), {}],
    ["a stream the caller reads", drip(), { parseAs: "stream" as const }],
  ])("the deadline closes the connection: %s", async (_, answer, init) => {
    const { base: baseUrl, firstConnectionClosed } = await open(answer);
    const call = createClient({ baseUrl, ...quiet, timeoutMs: 300 })
      .GET(USERS, init)
      .then(async ({ response }) => {
        await response.text();
      });
    await expect(underGarbageCollection(call)).rejects.toBeInstanceOf(RequestTimeoutError);
    await underGarbageCollection(firstConnectionClosed);
  });

  it("the caller's abort closes the connection", async () => {
    const { base: baseUrl, firstConnectionClosed } = await open(neverAnswer);
    const controller = new AbortController();
    const call = createClient({ baseUrl, ...quiet }).GET(USERS, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("left the page")), 100);
    await expect(underGarbageCollection(call)).rejects.toThrow("left the page");
    await underGarbageCollection(firstConnectionClosed);
  });

  it("a fetch of your own gets the call's signal beside the Request, and passes it on", async () => {
    const { base: baseUrl, firstConnectionClosed } = await open(neverAnswer);
    const signals: (AbortSignal | null | undefined)[] = [];
    const fetch = (request: Request, init?: RequestInit) => {
      signals.push(init?.signal);
      return globalThis.fetch(request, init);
    };
    const call = createClient({ baseUrl, fetch, ...quiet, timeoutMs: 300 }).GET(USERS);
    await expect(underGarbageCollection(call)).rejects.toBeInstanceOf(RequestTimeoutError);
    await underGarbageCollection(firstConnectionClosed);
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
  });
});

describe("abort", () => {
  it("the caller's signal ends a retry wait at once", async () => {
    const { fetch, requests } = answers(() => new Response("", { status: 503 }));
    const controller = new AbortController();
    const sleep = () => {
      controller.abort();
      return new Promise<void>(() => {});
    };
    const call = createClient({ fetch, sleep, ...quiet }).GET(USERS, { signal: controller.signal });
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    expect(requests).toHaveLength(1);
  });

  it("the caller's signal ends the wait for the answer", async () => {
    const baseUrl = await listen(neverAnswer);
    const controller = new AbortController();
    const call = createClient({ baseUrl, ...quiet }).GET(USERS, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
  });

  it.each([
    ["the call's signal", (signal: AbortSignal) => ({ call: { signal }, client: {} })],
    ["the client's signal", (signal: AbortSignal) => ({ call: {}, client: { signal } })],
  ])("%s ends a stream body the caller reads once the call has returned", async (_, where) => {
    const controller = new AbortController();
    const { call, client } = where(controller.signal);
    // A read the abort does not end goes on until the deadline, which ends it with another error.
    const { response } = await createClient({
      fetch: streaming,
      ...quiet,
      ...client,
      timeoutMs: 1_000,
    }).GET(USERS, { ...call, parseAs: "stream" });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const next = reader.read();
    controller.abort();
    await expect(next).rejects.toMatchObject({ name: "AbortError" });
  });

  it("holds one listener on a signal however many bodies are read, and none once their deadlines pass", async () => {
    const controller = new AbortController();
    const client = createClient({ fetch: streaming, ...quiet, timeoutMs: 50 });
    const calls = Array.from({ length: 20 }, () =>
      client.GET(USERS, { signal: controller.signal, parseAs: "stream" }),
    );
    const bodies = (await Promise.all(calls)).map(({ response }) => response.body as ReadableStream);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    await Promise.all(bodies.map((body) => expect(drain(body)).rejects.toBeInstanceOf(RequestTimeoutError)));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("the caller's abort ends a stream body on a real connection, and closes it", async () => {
    const { base: baseUrl, firstConnectionClosed } = await open(drip());
    const controller = new AbortController();
    // Far enough that a read still going then ends with the deadline's error, not the abort's.
    const { response } = await createClient({ baseUrl, ...quiet, timeoutMs: 20_000 }).GET(USERS, {
      signal: controller.signal,
      parseAs: "stream",
    });
    const read = drain(response.body as ReadableStream<Uint8Array>);
    controller.abort();
    await expect(read).rejects.toMatchObject({ name: "AbortError" });
    await underGarbageCollection(firstConnectionClosed);
  });

  it("an aborted signal sends nothing", async () => {
    const { fetch, requests } = stubFetch();
    const call = createClient({ fetch, ...quiet }).GET(USERS, { signal: AbortSignal.abort() });
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    expect(requests).toHaveLength(0);
  });
});

describe("what a call leaves behind", () => {
  // undici's Request keeps the signal it follows until a finaliser runs, some collections after the
  // call: a listener of the call's own would keep its answer and body alive that long too.
  it.each([
    ["an answer read at once", false, [200]],
    ["a stream the caller reads", true, [200]],
    ["a retried answer", false, [503, 200]],
  ])("leaves no listener on the call's signal: %s", async (_, keep, statuses) => {
    const signals: AbortSignal[] = [];
    const policy = callPolicyOf({ ...quiet, sleep: async () => {} });
    let i = 0;
    await runCall(
      { method: "GET", template: "/x", origin: "http://127.0.0.1:9" },
      policy,
      undefined,
      async (signal) => {
        signals.push(signal);
        return { response: new Response("", { status: statuses[i++] as number }) };
      },
      keep,
    );
    expect(signals).toHaveLength(statuses.length);
    for (const signal of signals) {
      expect(getEventListeners(signal, "abort")).toHaveLength(0);
    }
  });
});

describe("options", () => {
  it.each([
    [{ baseURL: "http://127.0.0.1:1" }, /no option "baseURL": did you mean baseUrl\?/],
    [{ timeout: 5 }, /no option "timeout": did you mean timeoutMs\?/],
    [{ retries: 1 }, /no option "retries": did you mean maxRetries\?/],
  ])("refuse %j, naming the nearest known option", (options, message) => {
    expect(() => createClient(options as never)).toThrow(ClientOptionsError);
    expect(() => createClient(options as never)).toThrow(message);
    expect(() => createLegacyClient(options as never)).toThrow(message);
  });

  it.each([{ timeoutMs: 0 }, { timeoutMs: 1.5 }, { maxRetries: -1 }, { maxRetries: 11 }])(
    "refuse %j",
    (options) => {
      expect(() => createClient(options)).toThrow(ClientOptionsError);
    },
  );

  it("refuse a call's own out-of-range timeoutMs before anything is sent", async () => {
    const { fetch, requests } = stubFetch();
    await expect(createClient({ fetch, ...quiet }).GET(USERS, { timeoutMs: -1 })).rejects.toThrow(
      ClientOptionsError,
    );
    expect(requests).toHaveLength(0);
  });
});

describe("debug output", () => {
  it("one line per try, with the path template, the status and the duration", async () => {
    const lines: string[] = [];
    const { fetch } = answers(
      () => new Response("", { status: 503 }),
      () => Response.json([]),
    );
    let now = 0;
    const sleep = async (ms: number) => {
      now += ms;
    };
    await createClient({
      fetch,
      sleep,
      random: () => 0,
      clock: { now: () => now },
      logger: { debug: (l) => lines.push(l) },
    }).GET(USERS);
    expect(lines).toEqual([`GET ${USERS} 503 in 0 ms`, `GET ${USERS} 200 in 250 ms`]);
  });
});

describe("an observer", () => {
  /** An observer that records what it is told, in order. */
  function recordingObserver() {
    const told: unknown[] = [];
    const observer: CallObserver = {
      call(call, run) {
        told.push({ started: call });
        return run({
          retrying: (retry) => told.push({ retrying: retry }),
          answered: (status) => told.push({ answered: status }),
        }).then(
          (result) => {
            told.push("resolved");
            return result;
          },
          (error: unknown) => {
            told.push({ rejected: (error as Error).name });
            throw error;
          },
        );
      },
    };
    return { told, observer };
  }

  it("is told of a call by its template and origin, of each retry with its status and wait, and of the answer", async () => {
    const { told, observer } = recordingObserver();
    const { fetch } = answers(
      () => new Response(null, { status: 429, headers: { "Retry-After": "1" } }),
      () => Response.json([]),
    );
    const { sleep, waits } = recordingSleep();
    const client = createClient({ baseUrl: "https://engage.example.test", fetch, sleep, observer, ...quiet });
    await client.GET(USERS);
    expect(told).toEqual([
      { started: { method: "GET", template: USERS, origin: "https://engage.example.test" } },
      { retrying: { retry: 1, status: 429, error: undefined, waitMs: waits[0] } },
      { answered: 200 },
      "resolved",
    ]);
  });

  it("is given the template of a path written with its values, never the path or its query", async () => {
    const { told, observer } = recordingObserver();
    const { fetch } = answers(() => new Response("true", { headers: { "Content-Type": "text/plain" } }));
    const legacy = createLegacyClient({ baseUrl: "https://portal.example.test", fetch, observer, ...quiet });
    await legacy.DELETE(`/voice/api/v1/admin/token/aws80:0a1b2c3d-secret?x=password` as never);
    expect(told[0]).toEqual({
      started: {
        method: "DELETE",
        template: "/voice/api/v1/admin/token/{apiToken}",
        origin: "https://portal.example.test",
      },
    });
    expect(JSON.stringify(told)).not.toMatch(/secret|password/);
  });

  it("hears a call that got no answer as a rejection, after the retries it was told of", async () => {
    const { told, observer } = recordingObserver();
    const fetch = async () => {
      throw new TypeError("fetch failed");
    };
    const client = createClient({
      baseUrl: "https://engage.example.test",
      fetch,
      sleep: async () => {},
      observer,
      maxRetries: 1,
      ...quiet,
    });
    await expect(client.GET(USERS)).rejects.toThrow("fetch failed");
    expect(told).toEqual([
      { started: { method: "GET", template: USERS, origin: "https://engage.example.test" } },
      { retrying: { retry: 1, status: undefined, error: expect.any(TypeError), waitMs: expect.any(Number) } },
      { rejected: "TypeError" },
    ]);
  });

  it("is checked: an observer without call is refused, naming the option", () => {
    expect(() => createClient({ observer: {} as never })).toThrow(/observer must be an object with call/);
  });
});
