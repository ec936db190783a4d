// Fault injection: off and unreachable by default; when enabled, each kind does what it says once.
import { describe, expect, it } from "vitest";
import { createSandboxApps, FaultError } from "../src/app.js";
import {
  call,
  exchange,
  expectApiError,
  expectConforms,
  open,
  openServer,
  recordingLogger,
  refresh,
} from "./helpers.js";

const accounts = "/voice/api/v1/admin/accounts";
const json = (body: unknown, method = "POST") => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

describe("faults switched off (the default)", () => {
  it("refuses programmatic faults", async () => {
    const { faults } = await open();
    expect(() => faults.next({ kind: "status", status: 503 })).toThrow(FaultError);
    expect(() => faults.next({ kind: "status", status: 503 })).toThrow(/Fault injection is off/);
    expect(faults.pending).toBe(0);
  });

  it("has no control endpoint on either host", async () => {
    const { mainUrl, legacyUrl } = await open();
    for (const base of [mainUrl, legacyUrl]) {
      expectApiError(await call(base, "/__sandbox/faults", json({ kind: "status", status: 503 })), 404);
      expectApiError(await call(base, "/__sandbox/faults", { method: "DELETE" }), 404);
    }
    expect((await exchange(mainUrl)).status).toBe(200);
  });
});

describe("faults switched on", () => {
  it("answers an injected 5xx once, for the matching request only", async () => {
    const { mainUrl, faults } = await open({ faults: { enabled: true } });
    faults.next({ kind: "status", status: 503, path: "/api/auth/token/refresh" });
    expect((await exchange(mainUrl)).status).toBe(200);
    const failed = await refresh(mainUrl, "anything");
    expectApiError(failed, 503, /Injected fault: status 503/);
    expect(faults.pending).toBe(0);
    expect((await refresh(mainUrl, "anything")).status).toBe(401);
  });

  it("answers an injected 429 with Retry-After", async () => {
    const { mainUrl, faults } = await open({ faults: { enabled: true } });
    faults.next({ kind: "rate-limit", retryAfterSeconds: 7, method: "POST", times: 2 });
    for (let i = 0; i < 2; i++) {
      const limited = await exchange(mainUrl);
      expectApiError(limited, 429);
      expectConforms(limited);
      expect(limited.headers.get("retry-after")).toBe("7");
    }
    expect((await exchange(mainUrl)).status).toBe(200);
  });

  it("delays an answer, then answers normally", async () => {
    const { mainUrl, faults } = await open({ faults: { enabled: true } });
    const token = (await exchange(mainUrl)).json.accessToken;
    faults.next({ kind: "delay", ms: 120 });
    const started = performance.now();
    const answer = await call(mainUrl, accounts, { headers: { Authorization: `Bearer ${token}` } });
    // A lower bound only: a busy machine can make it later, never earlier.
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    expect(answer.status).toBe(200);
  });

  it("drops the connection after processing a refresh: the client sees a network error, the token is spent", async () => {
    // A real socket: what is dropped is the connection.
    const { mainUrl, faults } = await openServer({ faults: { enabled: true } });
    const { refreshToken } = (await exchange(mainUrl)).json;
    faults.next({ kind: "drop-after-refresh" });
    await expect(refresh(mainUrl, refreshToken)).rejects.toThrow(TypeError);
    expectApiError(await refresh(mainUrl, refreshToken), 401, /already used/);
    // The fault does not outlive its one use.
    const again = (await exchange(mainUrl)).json.refreshToken;
    expect((await refresh(mainUrl, again)).status).toBe(200);
  });

  it("does not drop a refresh that fails", async () => {
    const { mainUrl, faults } = await open({ faults: { enabled: true } });
    faults.next({ kind: "drop-after-refresh" });
    expect((await refresh(mainUrl, "unknown")).status).toBe(401);
    expect(faults.pending).toBe(1);
  });

  it("takes faults over HTTP on either host, validates them, and clears them", async () => {
    const { mainUrl, legacyUrl, faults } = await open({ faults: { enabled: true } });
    const queued = await call(
      legacyUrl,
      "/__sandbox/faults",
      json({ kind: "status", status: 502, path: accounts }),
    );
    expect(queued.json).toEqual({ pending: 1 });
    expectApiError(await call(mainUrl, accounts), 502);
    for (const bad of [{ kind: "status", status: 200 }, { kind: "explode" }, { kind: "delay", ms: -1 }, []]) {
      expectApiError(await call(mainUrl, "/__sandbox/faults", json(bad)), 400);
    }
    expectApiError(
      await call(mainUrl, "/__sandbox/faults", { method: "POST", body: "{" }),
      400,
      /application\/json/,
    );
    expectApiError(
      await call(mainUrl, "/__sandbox/faults", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{",
      }),
      400,
      /not valid JSON/,
    );
    faults.next({ kind: "delay", ms: 10_000 });
    expect((await call(mainUrl, "/__sandbox/faults", { method: "DELETE" })).json).toEqual({ pending: 0 });
    expect(faults.pending).toBe(0);
  });

  it.each(["/__sandbox/faults", "/__sandbox/control"])(
    "answers 400 for an upload to %s cut short, as the client's doing, and logs nothing",
    async (path) => {
      const { lines, logger } = recordingLogger();
      const { main } = createSandboxApps({ faults: { enabled: true }, control: { enabled: true }, logger });
      const cutShort = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"kind":'));
          controller.error(new TypeError("terminated"));
        },
      });
      const response = await main.request(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: cutShort,
        duplex: "half",
      } as RequestInit);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { errorCode: string }).errorCode).toBe(
        "request.validation.exception",
      );
      expect(lines).toEqual([]);
    },
  );

  it.each([
    [{ kind: "status", status: 404 }, /fault.status must be an integer from 500 to 599/],
    [{ kind: "delay", ms: 120_000 }, /fault.ms/],
    [{ kind: "drop-after-refresh", path: "/x" }, /path and method are not allowed/],
    [{ kind: "rate-limit", times: 0 }, /fault.times/],
    [{ kind: "status", status: 500, path: "no-slash" }, /fault.path/],
  ])("rejects %j with a FaultError", (fault, message) => {
    const { faults } = createSandboxApps({ faults: { enabled: true } });
    expect(() => faults.next(fault as never)).toThrow(FaultError);
    expect(() => faults.next(fault as never)).toThrow(message);
  });
});
