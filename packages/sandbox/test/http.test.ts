// What every path shares: host separation, unknown paths and methods, body limits, CORS, the Date
// header, option checks, and the apps running without Node's HTTP server.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { operationTable } from "@engage-voice/client";
import { schemaProblems } from "@engage-voice/test-kit";
import { describe, expect, it } from "vitest";
import { createSandboxApps, SandboxOptionsError } from "../src/app.js";
import { describeSandbox, IDLE_CONNECTION_MS, SandboxPortInUseError, startSandbox } from "../src/node.js";
import { call, exchange, expectApiError, form, manualClock, open, openServer } from "./helpers.js";

/** Each operation with its path parameters filled with a value that looks like an API token. */
const requests = operationTable.map((op) => ({
  ...op,
  method: op.method.toUpperCase(),
  url: op.path.replace(/\{\w+\}/g, "sbx01:abc"),
}));
const TITLES = { main: "the contact-center host", legacy: "the deprecated login host" } as const;

// In process (the apps' fetch, no socket): what is checked here is the routing, not HTTP itself.
describe("hosts", () => {
  it.each(requests)(
    "the other host answers 404 for $method $path, naming the host that serves it",
    async ({ method, url, host }) => {
      const sandbox = await open();
      const other = host === "main" ? sandbox.legacyUrl : sandbox.mainUrl;
      const answer = await call(other, url, { method });
      expectApiError(answer, 404, new RegExp(`served by ${TITLES[host]}, not by this one`));
      expect(answer.body).not.toContain("sbx01:abc");
    },
  );

  it("keeps an idle connection open longer than the clients in front of it keep theirs", async () => {
    const sandbox = await openServer();
    // Node's server announces its idle timeout on a kept-alive answer; undici closes at 4 s, Node's agent at 5 s.
    const response = await fetch(`${sandbox.mainUrl}/voice/api/v1/admin/accounts`);
    await response.arrayBuffer();
    expect(response.headers.get("keep-alive")).toBe(`timeout=${IDLE_CONNECTION_MS / 1000}`);
    expect(IDLE_CONNECTION_MS).toBeGreaterThan(5_000);
  });

  it("routes every in-process sandbox of a worker to its own app, however many the files before opened", async () => {
    // The files of a worker share the helpers: made-up origins must stay routable (port 80 is not, a
    // URL drops it) however many sandboxes came before.
    const sandboxes = await Promise.all(Array.from({ length: 100 }, () => open()));
    expect(new Set(sandboxes.flatMap((s) => [s.mainUrl, s.legacyUrl])).size).toBe(200);
    for (const url of sandboxes.flatMap((s) => [s.mainUrl, s.legacyUrl])) {
      expectApiError(await call(url, "/voice/api/v2/admin/accounts"), 404, /No such path/);
    }
  });

  it("answers 404 ApiError for an unknown path on either host", async () => {
    const { mainUrl, legacyUrl } = await open();
    expectApiError(
      await call(mainUrl, "/voice/api/v2/admin/accounts"),
      404,
      /No such path on the contact-center host/,
    );
    expectApiError(await call(legacyUrl, "/"), 404, /No such path on the deprecated login host/);
  });

  it("answers 405 ApiError with Allow for a method a path does not take", async () => {
    const { mainUrl, legacyUrl } = await open();
    const put = await call(mainUrl, "/api/auth/token/refresh", { method: "PUT" });
    expectApiError(put, 405, /PUT is not allowed here; use POST/);
    expect(put.headers.get("allow")).toBe("POST");
    const patch = await call(legacyUrl, "/voice/api/v1/admin/token", { method: "PATCH" });
    expect(patch.headers.get("allow")).toBe("GET, POST");
  });
});

describe("request bodies", () => {
  it("answers 413 ApiError for a declared length over the limit, before reading it", async () => {
    const { mainUrl } = await openServer({ maxBodyBytes: 1024 });
    const answer = await call(mainUrl, "/api/auth/login/rc/accesstoken", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `rcAccessToken=${"a".repeat(2000)}&rcTokenType=Bearer`,
    });
    expectApiError(answer, 413, /larger than 1024 bytes/);
  });

  it("answers 413 ApiError for a chunked body that grows over the limit", async () => {
    const { mainUrl } = await openServer({ maxBodyBytes: 1024 });
    const chunk = new TextEncoder().encode("a".repeat(400));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 10) {
          controller.enqueue(chunk);
        } else {
          controller.close();
        }
      },
    });
    const answer = await call(mainUrl, "/api/auth/token/refresh", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
      duplex: "half",
    } as RequestInit);
    expectApiError(answer, 413, /larger than 1024 bytes/);
  });

  it("accepts a body just under the limit", async () => {
    const { mainUrl } = await openServer({ maxBodyBytes: 1024 });
    const token = "x".repeat(1024 - "rcAccessToken=&rcTokenType=Bearer".length);
    expectApiError(await exchange(mainUrl, token), 401);
  });
});

describe("CORS", () => {
  it("answers a preflight from a loopback page with the headers a client sends", async () => {
    const { mainUrl } = await open();
    const answer = await call(mainUrl, "/voice/api/v1/admin/accounts", {
      method: "OPTIONS",
      headers: {
        Origin: "http://127.0.0.1:5173",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:5173");
    expect(answer.headers.get("access-control-allow-headers")).toBe(
      "Authorization,X-Auth-Token,Content-Type,Prefer",
    );
    expect(answer.headers.get("access-control-allow-methods")).toContain("DELETE");
  });

  it("lets a loopback page read Retry-After and Date, and allows no other origin", async () => {
    const { mainUrl } = await open();
    const local = await call(mainUrl, "/voice/api/v1/admin/accounts", {
      headers: { Origin: "http://localhost:3000" },
    });
    expect(local.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    expect(local.headers.get("access-control-expose-headers")).toBe("Retry-After,Date");
    const remote = await call(mainUrl, "/voice/api/v1/admin/accounts", {
      headers: { Origin: "https://example.com" },
    });
    expect(remote.headers.get("access-control-allow-origin")).toBeNull();
  });

  it.each(["https://localhost:8443", "https://127.0.0.1:5173", "https://[::1]:3000", "http://[::1]:3000"])(
    "allows the loopback origin %s: a local dev server may use https: with a self-signed certificate",
    async (origin) => {
      const { mainUrl } = await open();
      const answer = await call(mainUrl, "/voice/api/v1/admin/accounts", {
        method: "OPTIONS",
        headers: { Origin: origin, "Access-Control-Request-Method": "GET" },
      });
      expect(answer.status).toBe(204);
      expect(answer.headers.get("access-control-allow-origin")).toBe(origin);
    },
  );

  it.each(["https://localhost.example.com", "https://127.0.0.1.example.com", "ftp://localhost", "null"])(
    "allows no other origin, such as %s",
    async (origin) => {
      const { mainUrl } = await open();
      const answer = await call(mainUrl, "/voice/api/v1/admin/accounts", {
        method: "OPTIONS",
        headers: { Origin: origin, "Access-Control-Request-Method": "GET" },
      });
      expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    },
  );
});

describe("options", () => {
  it("sets Date from the sandbox clock on every answer, errors included", async () => {
    const clock = manualClock(Date.UTC(2031, 5, 1, 8, 30, 0));
    const { mainUrl } = await open({ now: clock.now });
    const answer = await call(mainUrl, "/nope");
    expect(answer.headers.get("date")).toBe("Sun, 01 Jun 2031 08:30:00 GMT");
    expect(answer.json.timestamp).toBe(clock.now());
  });

  it("moves Date with the sandbox clock, second by second, forward and back", async () => {
    const clock = manualClock(Date.UTC(2031, 5, 1, 8, 30, 0, 500));
    const { mainUrl } = await open({ now: clock.now });
    const date = async () => (await call(mainUrl, "/nope")).headers.get("date");
    expect(await date()).toBe("Sun, 01 Jun 2031 08:30:00 GMT");
    clock.advance(499);
    expect(await date()).toBe("Sun, 01 Jun 2031 08:30:00 GMT");
    clock.advance(1);
    expect(await date()).toBe("Sun, 01 Jun 2031 08:30:01 GMT");
    clock.advance(-1_001); // an injected clock may go back
    expect(await date()).toBe("Sun, 01 Jun 2031 08:29:59 GMT");
  });

  it("adds no CORS headers to an answer that no page asked for, but tells caches it depends on Origin", async () => {
    const { mainUrl } = await open();
    const answer = await call(mainUrl, "/voice/api/v1/admin/accounts");
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    expect(answer.headers.get("access-control-expose-headers")).toBeNull();
    expect(answer.headers.get("vary")).toBe("Origin");
  });

  it.each([
    [{ tokenLifetimeMs: 999 }, /tokenLifetimeMs must be an integer of at least 1000/],
    [{ tokenLifetimeMs: 1500.5 }, /tokenLifetimeMs/],
    [{ exchangeRateLimit: { limit: 0, windowMs: 1000 } }, /exchangeRateLimit.limit/],
    [{ parentTokens: { t: 4242 } }, /unknown user id 4242/],
    [{ parentTokens: { "": 1001 } }, /parent token must be a non-empty string/],
    [{ legacyLogins: [{ username: "u", password: "", platformId: "p", userId: 1003 }] }, /password/],
    [{ maxBodyBytes: 0 }, /maxBodyBytes/],
  ])("rejects %j with a SandboxOptionsError", (options, message) => {
    expect(() => createSandboxApps(options)).toThrow(SandboxOptionsError);
    expect(() => createSandboxApps(options)).toThrow(message);
  });

  it("rejects a bad port before listening", async () => {
    await expect(startSandbox({ mainPort: 70_000 })).rejects.toThrow(/mainPort must be an integer/);
  });

  it("serves given ports on 127.0.0.1, and reports a port in use", async () => {
    const first = await openServer();
    const port = Number(new URL(first.mainUrl).port);
    const inUse = startSandbox({ mainPort: port });
    await expect(inUse).rejects.toThrow(SandboxPortInUseError);
    await expect(inUse).rejects.toMatchObject({
      code: "port_in_use",
      port,
      option: "mainPort",
      message: `mainPort ${port}: the port is in use on 127.0.0.1: give another port, or 0 for a free one`,
    });
    await first.stop();
    const second = await openServer({ mainPort: port });
    expect(second.mainUrl).toBe(`http://127.0.0.1:${port}`);
  });
});

describe("runtime neutrality", () => {
  it("answers through the apps' fetch alone, without a Node server", async () => {
    const { main, legacy } = createSandboxApps();
    const exchanged = await main.request(
      "/api/auth/login/rc/accesstoken?includeRefresh=true",
      form({ rcAccessToken: "sandbox-rc-token-ada", rcTokenType: "Bearer" }),
    );
    expect(exchanged.status).toBe(200);
    const { accessToken } = (await exchanged.json()) as { accessToken: string };
    const created = await legacy.request("/voice/api/v1/admin/token", {
      method: "POST",
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(await created.text()).toMatch(/^sbx01:/);
  });

  it("simulates a dropped answer with a failing body where it cannot close the connection", async () => {
    const { main, faults } = createSandboxApps({ faults: { enabled: true } });
    const exchanged = await main.request(
      "/api/auth/login/rc/accesstoken?includeRefresh=true",
      form({ rcAccessToken: "sandbox-rc-token-ada", rcTokenType: "Bearer" }),
    );
    const { refreshToken } = (await exchanged.json()) as { refreshToken: string };
    faults.next({ kind: "drop-after-refresh" });
    const dropped = await main.request(
      "/api/auth/token/refresh",
      form({ refresh_token: refreshToken, rcTokenType: "Bearer" }),
    );
    await expect(dropped.text()).rejects.toThrow();
    // The refresh was processed: the token sent is spent.
    const reuse = await main.request(
      "/api/auth/token/refresh",
      form({ refresh_token: refreshToken, rcTokenType: "Bearer" }),
    );
    expect(reuse.status).toBe(401);
  });
});

describe("the printed example", () => {
  const run = promisify(execFile);

  it("names both URLs and the seeded credentials", async () => {
    const sandbox = await openServer();
    const text = describeSandbox(sandbox);
    expect(text).toContain(sandbox.mainUrl);
    expect(text).toContain(sandbox.legacyUrl);
    for (const { token } of sandbox.seed.parentTokens) {
      expect(text).toContain(token);
    }
    expect(text).toContain("sandbox-password");
  });

  it("has curl lines that work as printed", async () => {
    const sandbox = await openServer();
    const text = describeSandbox(sandbox);
    const script = text.slice(text.indexOf("Try it with curl:") + 17, text.indexOf("Or with the client"));
    const { stdout } = await run("bash", ["-eo", "pipefail", "-c", script], { timeout: 60_000 });
    const accounts = JSON.parse(stdout) as unknown[];
    expect(accounts).toHaveLength(3);
    for (const account of accounts) {
      expect(schemaProblems("Account", account)).toEqual([]);
    }
  });
});
