// A renewal every waiting caller has given up on ends at once: its token call is aborted and no
// further try or backoff follows. One that a caller still waits for goes on.

import { createClient } from "@engage-voice/client";
import { describe, expect, it, vi } from "vitest";
import type { TokenEvent } from "../src/index.js";
import { BASE, setup } from "./fake-server.js";

describe("a renewal its callers gave up on", () => {
  it("goes on while one caller still waits, though another gave up", async () => {
    // The hanging exchange ends at its own deadline: this one keeps a caller, so it is not given up.
    const s = setup({ timeoutMs: 1_000 });
    s.server.fail("exchange", "hang");
    const caller = new AbortController();
    const waiting = s.auth.getAccessToken().catch(() => "unreachable");
    expect(waiting).toBeDefined();
    const api = s.auth.client().GET("/voice/api/v1/admin/accounts", { signal: caller.signal });
    await vi.waitFor(() => expect(s.server.calls.exchange).toBe(1), { interval: 1 });
    expect(s.server.calls.exchange).toBe(1);
    caller.abort(new Error("caller gave up"));
    await expect(api).rejects.toThrow();
    // getAccessToken() without a signal still waits: the renewal goes on for it.
    expect(await waiting).toMatch(/^ey/);
    expect(s.server.calls.exchange).toBe(2);
  });

  it("with no caller left, ends without retrying and tells onEvent it failed", async () => {
    const events: TokenEvent[] = [];
    const s = setup({ onEvent: (event) => events.push(event) });
    s.server.fail("exchange", "hang");
    const caller = new AbortController();
    const api = s.auth.client().GET("/voice/api/v1/admin/accounts", { signal: caller.signal });
    await vi.waitFor(() => expect(s.server.calls.exchange).toBe(1), { interval: 1 });
    caller.abort(new Error("caller gave up"));
    await expect(api).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(s.server.calls.exchange).toBe(1);
    expect(s.sleeps).toEqual([]);
    expect(events).toContainEqual(expect.objectContaining({ type: "failed", tenant: "default" }));
    // The next caller starts a renewal of its own.
    expect(await s.auth.getAccessToken()).toMatch(/^ey/);
    expect(events).toContainEqual(
      expect.objectContaining({ type: "exchanged", tenant: "default", sequence: 1 }),
    );
    expect(events).toContainEqual(expect.objectContaining({ type: "waited", tenant: "default" }));
  });

  it("getAccessToken({ signal }) ends its wait on abort, and the renewal with it", async () => {
    const s = setup();
    s.server.fail("exchange", "hang");
    const caller = new AbortController();
    const waiting = s.auth.getAccessToken({ signal: caller.signal });
    await vi.waitFor(() => expect(s.server.calls.exchange).toBe(1), { interval: 1 });
    caller.abort(new Error("gave up"));
    await expect(waiting).rejects.toThrow("gave up");
    await expect(s.auth.getAccessToken({ signal: AbortSignal.abort(new Error("already")) })).rejects.toThrow(
      "already",
    );
    expect(s.server.calls.exchange).toBe(1);
  });

  it("a caller whose signal is already aborted does not wait at all", async () => {
    const s = setup();
    const error = await s.auth
      .client()
      .GET("/voice/api/v1/admin/accounts", { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toBeDefined();
    expect(s.server.calls.accounts).toBe(0);
  });
});

describe("close()", () => {
  it("refuses new work with a closed error that names the tenant", async () => {
    const s = setup({ tenant: "acme" });
    await s.auth.getAccessToken();
    expect(await s.auth.close()).toBe(true);
    await expect(s.auth.getAccessToken()).rejects.toMatchObject({
      code: "closed",
      message: expect.stringMatching(/tenant "acme" was closed/),
    });
    await expect(s.auth.refresh()).rejects.toMatchObject({ code: "closed" });
    expect(() => s.auth.close({ timeoutMs: -1 })).toThrow(/timeoutMs must be an integer/);
  });

  it("sends nothing more through client(), fetch or the middleware, though the token is still valid", async () => {
    const s = setup();
    await s.auth.getAccessToken();
    const kept = s.auth.client();
    const own = createClient({ baseUrl: BASE, fetch: s.server.fetch });
    own.use(s.auth.middleware);
    expect(await s.auth.close()).toBe(true);
    const closed = expect.objectContaining({ code: "closed" });
    await expect(kept.GET("/voice/api/v1/admin/accounts")).rejects.toEqual(closed);
    await expect(s.auth.client().GET("/voice/api/v1/admin/accounts")).rejects.toEqual(closed);
    await expect(s.auth.fetch(`${BASE}/voice/api/v1/admin/accounts`)).rejects.toEqual(closed);
    await expect(own.GET("/voice/api/v1/admin/accounts")).rejects.toEqual(closed);
    expect(s.server.calls.accounts).toBe(0);
  });

  it("gives up a renewal still in flight at its deadline: nothing is sent after it resolved", async () => {
    const s = setup({ timeoutMs: 60_000 });
    await s.auth.getAccessToken();
    s.clock.advance(301_000);
    s.server.fail("refresh", "hang");
    const waiting = s.auth.getAccessToken();
    await vi.waitFor(() => expect(s.server.calls.refresh).toBe(1), { interval: 1 });
    expect(await s.auth.close({ timeoutMs: 10 })).toBe(false);
    await expect(waiting).rejects.toMatchObject({ code: "closed" });
    expect(s.server.calls.refresh + s.server.calls.exchange).toBe(2);
    expect(s.server.calls.accounts).toBe(0);
  });

  it("starts no renewal in the refresh window once closed", async () => {
    const s = setup();
    await s.auth.getAccessToken();
    await s.auth.close();
    s.clock.advance(290_000);
    await expect(s.auth.getAccessToken()).rejects.toMatchObject({ code: "closed" });
    expect(s.server.calls.refresh).toBe(0);
  });
});

describe("a renewal no waiting caller started", () => {
  it("runs to its end though a caller that joined it gives up: its answer may carry a rotated token", async () => {
    const s = setup({ timeoutMs: 1_000 });
    await s.auth.getAccessToken();
    s.clock.advance(301_000);
    s.server.fail("refresh", "hang");
    const refreshing = s.auth.refresh().catch((e: unknown) => e);
    const caller = new AbortController();
    const joined = s.auth.getAccessToken({ signal: caller.signal });
    caller.abort(new Error("gave up"));
    await expect(joined).rejects.toThrow("gave up");
    // Not aborted by the caller: the hanging refresh ends at its own deadline, then the renewal goes on.
    expect(await refreshing).toMatchObject({ accessToken: expect.stringMatching(/^ey/) });
  });
});
