import { createHook } from "node:async_hooks";
import { createClient } from "@engage-voice/client";
import { describe, expect, it, vi } from "vitest";
import { createTokenManager } from "../src/index.js";
import { BASE, fakeClock, fakeServer, PARENT_TOKEN, setup } from "./fake-server.js";
import { momentsNow, moveTo } from "./renewal-times.js";

/**
 * How many timers created while `body` ran are still pending after it. Counted by identity, not as
 * a difference of the process's active timers: in a worker that other files share, their timers may
 * end in the meantime.
 */
async function timersLeftBy(body: () => Promise<void>): Promise<number> {
  const pending = new Set<number>();
  const hook = createHook({
    init: (id, type) => void (type === "Timeout" && pending.add(id)),
    destroy: (id) => void pending.delete(id),
  }).enable();
  try {
    await body();
    // Node reports a cleared timer's end after the current turn.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    hook.disable();
  }
  return pending.size;
}

/** Resolves once the background renewal has stored its token set. */
function nextTokens(onTokens: ReturnType<typeof vi.fn>) {
  const before = onTokens.mock.calls.length;
  return vi.waitFor(() => expect(onTokens.mock.calls.length).toBeGreaterThan(before), { interval: 1 });
}

describe("proactive refresh", () => {
  it("exchanges on first use, then serves the cached token outside the refresh window", async () => {
    const { auth, server, clock } = setup();
    const first = await auth.getAccessToken();
    const { lastFresh } = momentsNow(clock, auth);
    expect(server.calls.exchange).toBe(1);
    while (clock.now() < lastFresh) {
      clock.advance(Math.min(5_000, lastFresh - clock.now()));
      expect(await auth.getAccessToken()).toBe(first);
    }
    expect(server.totalTokenCalls()).toBe(1);
  });

  it("inside the window serves the cached token and runs one refresh for all callers", async () => {
    const onTokens = vi.fn();
    const { auth, server, clock } = setup({ onTokens });
    const first = await auth.getAccessToken();
    moveTo(clock, momentsNow(clock, auth).inWindow);
    const renewed = nextTokens(onTokens);
    const tokens = await Promise.all(Array.from({ length: 100 }, () => auth.getAccessToken()));
    expect(new Set(tokens)).toEqual(new Set([first]));
    await renewed;
    expect(server.calls.refresh).toBe(1);
    const second = await auth.getAccessToken();
    expect(second).not.toBe(first);
    expect(server.calls.refresh).toBe(1);
  });

  it("sizes the window to the token's lifetime: a 2-second token, known to live 1 s", async () => {
    const onTokens = vi.fn();
    const { auth, server, clock } = setup({ onTokens }, { lifetimeSeconds: 2 });
    const first = await auth.getAccessToken();
    // Whole-second claims: a 2-second token may have been stamped up to a second before its iat says.
    expect(auth.session()?.expiresAt).toBe(clock.now() + 1_000);
    const { lastFresh, inWindow } = momentsNow(clock, auth);
    moveTo(clock, lastFresh);
    expect(await auth.getAccessToken()).toBe(first);
    expect(server.calls.refresh).toBe(0);
    moveTo(clock, inWindow);
    const renewed = nextTokens(onTokens);
    expect(await auth.getAccessToken()).toBe(first);
    await renewed;
    expect(server.calls.refresh).toBe(1);
  });

  it("does not refresh on every call: 20 minutes of calls cost one refresh per token lifetime", async () => {
    const { auth, server, clock } = setup();
    await auth.getAccessToken();
    const { renewsAt } = momentsNow(clock, auth);
    // Each token is used until its window opens (a call a second, so up to a second later).
    const fresh = renewsAt - clock.now();
    const total = 20 * 60_000;
    for (let second = 0; second < total / 1_000; second++) {
      await auth.getAccessToken();
      clock.advance(1_000);
    }
    expect(server.calls.exchange).toBe(1);
    expect(server.calls.refresh).toBeGreaterThanOrEqual(Math.floor(total / (fresh + 1_000)));
    expect(server.calls.refresh).toBeLessThanOrEqual(Math.ceil(total / fresh));
  });

  it("never sends a token that is expired or about to expire", async () => {
    const { auth, server, clock } = setup();
    const client = createClient({ baseUrl: BASE, fetch: server.fetch });
    client.use(auth.middleware);
    await auth.getAccessToken();
    // The server's clock sees a token a second longer than the manager (whole-second claims).
    const { expiresAt, unservableAt } = momentsNow(clock, auth);
    const leastLeft = expiresAt - unservableAt + 1_000;
    for (let i = 0; i < 200; i++) {
      const { response } = await client.GET("/voice/api/v1/admin/accounts");
      expect(response.status).toBe(200);
      clock.advance(7_000);
    }
    expect(Math.min(...server.remainingAtUse)).toBeGreaterThanOrEqual(leastLeft);
  });

  it("waits for the refresh once the token is in the unservable end of its window", async () => {
    const { auth, server, clock } = setup();
    const first = await auth.getAccessToken();
    moveTo(clock, momentsNow(clock, auth).unservable);
    const second = await auth.getAccessToken();
    expect(second).not.toBe(first);
    expect(server.calls.refresh).toBe(1);
  });

  it("hands out a token just obtained, however short its lifetime, without a loop", async () => {
    const { auth, server } = setup({}, { lifetimeSeconds: 0 });
    const first = await auth.getAccessToken();
    expect(server.calls.exchange).toBe(1);
    const second = await auth.getAccessToken();
    expect(second).not.toBe(first);
    expect(server.totalTokenCalls()).toBe(2);
  });

  it("makes no call and keeps no timer while idle", async () => {
    const clock = fakeClock();
    const server = fakeServer({ clock });
    const left = await timersLeftBy(async () => {
      const auth = createTokenManager({
        baseUrl: BASE,
        rcAccessToken: PARENT_TOKEN,
        fetch: server.fetch,
        clock,
      });
      clock.advance(3_600_000);
      expect(server.totalTokenCalls()).toBe(0);
      await auth.getAccessToken();
      clock.advance(3_600_000);
    });
    expect(server.totalTokenCalls()).toBe(1);
    expect(left).toBe(0);
  });

  it("accepts a custom refresh window", async () => {
    const onTokens = vi.fn();
    const { auth, server, clock } = setup({ onTokens, refreshWindow: () => 120_000 });
    const first = await auth.getAccessToken();
    clock.advance(200_000); // 100 s left: inside a 2-minute window
    const renewed = nextTokens(onTokens);
    expect(await auth.getAccessToken()).toBe(first);
    await renewed;
    expect(server.calls.refresh).toBe(1);
  });
});
