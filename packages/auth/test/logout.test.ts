import { describe, expect, it, vi } from "vitest";
import { EngageVoiceAuthError, memoryStore, type TokenStore } from "../src/index.js";
import { type FakeServer, PARENT_USER, setup } from "./fake-server.js";

/** A fetch that holds token calls until released. */
function holdingFetch(getServer: () => FakeServer) {
  let release = () => {};
  let arrived = 0;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding = false;
  return {
    fetch: async (request: Request) => {
      const response = await getServer().fetch(request);
      if (holding && new URL(request.url).pathname.startsWith("/api/auth/")) {
        arrived++;
        await gate;
      }
      return response;
    },
    hold: () => {
      holding = true;
    },
    release: () => release(),
    arrived: () => arrived,
  };
}

describe("logout()", () => {
  it("during an in-flight refresh: the refreshed tokens are discarded, not stored", async () => {
    const store = memoryStore();
    const set = vi.spyOn(store, "set");
    const onTokens = vi.fn();
    let server: FakeServer | undefined;
    const held = holdingFetch(() => server as FakeServer);
    const s = setup({ store, onTokens, fetch: held.fetch });
    server = s.server;
    await s.auth.getAccessToken();
    s.clock.advance(301_000);
    held.hold();
    const waiting = s.auth.getAccessToken().catch((e: unknown) => e);
    await vi.waitFor(() => expect(held.arrived()).toBe(1), { interval: 1 });
    await s.auth.logout();
    held.release();
    const error = await waiting;
    expect(error).toBeInstanceOf(EngageVoiceAuthError);
    expect((error as EngageVoiceAuthError).code).toBe("logged_out");
    expect(s.server.calls.refresh).toBe(1);
    expect(set).toHaveBeenCalledTimes(1); // the exchange only
    expect(onTokens).toHaveBeenCalledTimes(1);
    expect(await store.get()).toBeUndefined();
    expect(s.auth.session()).toBeUndefined();
    // A new session starts with a new exchange and is stored again.
    await s.auth.getAccessToken();
    expect(s.server.calls.exchange).toBe(2);
    expect(await store.get()).toBeDefined();
  });

  it("while the store is still writing the refreshed tokens: the store ends up empty", async () => {
    const inner = memoryStore();
    let release = () => {};
    let writing = 0;
    const gated: TokenStore = {
      get: () => inner.get(),
      clear: () => inner.clear(),
      set: async (tokens) => {
        if (++writing === 2) {
          await new Promise<void>((resolve) => {
            release = resolve;
          });
        }
        await inner.set(tokens);
      },
    };
    const s = setup({ store: gated });
    await s.auth.getAccessToken();
    s.clock.advance(301_000);
    const waiting = s.auth.getAccessToken().catch((e: unknown) => e);
    await vi.waitFor(() => expect(writing).toBe(2), { interval: 1 });
    const loggingOut = s.auth.logout();
    release();
    await loggingOut;
    expect(await waiting).toMatchObject({ code: "logged_out" });
    expect(await inner.get()).toBeUndefined();
  });

  it("during the wait between two attempts: no further token call", async () => {
    let logout = async () => {};
    const s = setup({ sleep: () => logout() });
    logout = () => s.auth.logout();
    await s.auth.getAccessToken();
    s.clock.advance(301_000);
    s.server.fail("refresh", { status: 503 }, { status: 503 });
    await expect(s.auth.getAccessToken()).rejects.toMatchObject({ code: "logged_out" });
    expect(s.server.calls.refresh).toBe(1);
    expect(s.server.calls.exchange).toBe(1);
  });

  it("forgets the tokens, in the store too", async () => {
    const store = memoryStore();
    const s = setup({ store });
    await s.auth.getAccessToken();
    expect(s.auth.session()?.accountIds).toEqual([PARENT_USER.accountId]);
    await s.auth.logout();
    expect(await store.get()).toBeUndefined();
    expect(s.auth.session()).toBeUndefined();
  });
});
