// What an attacker or an unlucky client sends the sandbox over real sockets: oversized and endless
// control bodies, a flood of faults, tokens in mistyped paths, foreign Host headers (DNS rebinding),
// and bytes Node's HTTP parser refuses. Every answer is the document's JSON error.
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { MAX_PENDING_FAULTS } from "../src/faults.js";
import { call, exchange, expectApiError, manualClock, openServer } from "./helpers.js";

const json = (body: unknown) => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** A POST whose body is sent chunked, `chunks` times `size` bytes, with no Content-Length. */
function chunkedPost(base: string, path: string, chunks: number, size: number) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(path, base);
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "Content-Type": "application/json" },
      },
      (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", (error) =>
      (error as NodeJS.ErrnoException).code === "EPIPE" ? undefined : reject(error),
    );
    const chunk = Buffer.alloc(size, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < chunks) {
        sent++;
        if (!req.write(chunk)) {
          return void req.once("drain", pump);
        }
      }
      req.end();
    };
    pump();
  });
}

/** The form post a page at `origin` makes without a preflight. */
const fromPage = (origin: string, rcAccessToken: string) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
  body: new URLSearchParams({ rcAccessToken, rcTokenType: "Bearer" }).toString(),
});

/** Raw bytes over a socket; the whole answer as text. */
function raw(base: string, bytes: string) {
  return new Promise<string>((resolve, reject) => {
    const url = new URL(base);
    const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error("no answer")));
  });
}

describe("the sandbox under hostile input", () => {
  it("refuses a fault body past 4 kB while reading it, chunked or not", async () => {
    const sandbox = await openServer({ faults: { enabled: true } });
    const answer = await chunkedPost(sandbox.mainUrl, "/__sandbox/faults", 1_024, 64 * 1024); // 64 MB offered
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).errorCode).toBe("payload.too.large.exception");
    expect(sandbox.faults.pending).toBe(0);
  });

  it("keeps at most 100 faults waiting, and says how to clear them", async () => {
    const sandbox = await openServer({ faults: { enabled: true } });
    for (let i = 0; i < MAX_PENDING_FAULTS; i++) {
      expect(
        (await call(sandbox.mainUrl, "/__sandbox/faults", json({ kind: "status", status: 503 }))).status,
      ).toBe(200);
    }
    const refused = await call(sandbox.mainUrl, "/__sandbox/faults", json({ kind: "status", status: 503 }));
    expectApiError(refused, 400, /At most 100 faults wait at once/);
    expect(sandbox.faults.pending).toBe(MAX_PENDING_FAULTS);
  });

  it("never echoes a token from a mistyped path in requestUri", async () => {
    const sandbox = await openServer();
    const apiToken = "sbx01:6f1c2b8e-1d3a-4c5b-9e7f-0a1b2c3d4e5f";
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
    for (const path of [
      `/voice/api/v1/admin/tokens/${apiToken}`,
      `/voice/api/v1/admin/${jwt}/users`,
      `/x/${"a".repeat(40)}`,
    ]) {
      const answer = await call(sandbox.mainUrl, path);
      expectApiError(answer, 404);
      expect(answer.body).not.toContain(apiToken);
      expect(answer.body).not.toContain(jwt);
      expect(answer.body).not.toContain("a".repeat(40));
      expect(answer.json.requestUri).toMatch(/\{redacted\}/);
    }
  });

  it("refuses a Host header that names another site (DNS rebinding), with the JSON error", async () => {
    const sandbox = await openServer();
    const port = new URL(sandbox.mainUrl).port;
    const answer = await raw(
      sandbox.mainUrl,
      `GET /voice/api/v1/admin/accounts HTTP/1.1\r\nHost: attacker.example:${port}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/DNS rebinding/);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const ok = await raw(
        sandbox.mainUrl,
        `GET /voice/api/v1/admin/accounts HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      expect(ok).toMatch(/^HTTP\/1\.1 401 /); // reaches the API: no credential
    }
  });

  it("refuses form posts from a page on another site before they count against the exchange limit", async () => {
    const clock = manualClock();
    const sandbox = await openServer({
      now: clock.now,
      exchangeRateLimit: { limit: 2, windowMs: 60_000 },
      faults: { enabled: true },
    });
    sandbox.faults.next({ kind: "status", status: 503 });
    const exchangePath = "/api/auth/login/rc/accesstoken";
    for (const origin of ["https://attacker.example", "http://localhost.attacker.example", "null"]) {
      for (let i = 0; i < 3; i++) {
        const answer = await call(sandbox.mainUrl, exchangePath, fromPage(origin, `guess-${i}`));
        expectApiError(answer, 403, /pages on 127\.0\.0\.1, localhost or \[::1\] only/);
      }
    }
    // Nothing was taken: the fault waits, and the window is empty.
    expect(sandbox.faults.pending).toBe(1);
    sandbox.faults.clear();
    const fromLocalPage = fromPage("http://localhost:5173", "sandbox-rc-token-ada");
    expect((await call(sandbox.mainUrl, exchangePath, fromLocalPage)).status).toBe(200);
    expect((await exchange(sandbox.mainUrl)).status).toBe(200);
    expect((await exchange(sandbox.mainUrl)).status).toBe(429);
  });

  it.each([
    ["a bad header byte", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\u0001b\r\n\r\n"],
    [
      "a body without framing",
      "POST /api/auth/token/refresh HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ],
    ["not HTTP at all", "\u0016\u0003\u0001\u0000\u00a5hello\r\n\r\n"],
  ])("answers %s with the document's JSON error, not a bare 400", async (_, bytes) => {
    const sandbox = await openServer();
    const answer = await raw(sandbox.mainUrl, bytes);
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toMatch(/Content-Type: application\/json/);
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
    expect(body).toMatchObject({
      errorCode: "request.validation.exception",
      generalMessage: expect.any(String),
    });
  });
});
