import { describe, expect, it, vi } from "vitest";
import { memoryStore, type TokenSet, type TokenStore } from "../src/index.js";
import { BASE, type FakeServer, setup } from "./fake-server.js";
import { momentsNow, moveTo } from "./renewal-times.js";

const ACCOUNTS = `${BASE}/voice/api/v1/admin/accounts`;

/** A memory store that records each write and can hold writes back. */
function recordingStore() {
  const inner = memoryStore();
  const writes: TokenSet[] = [];
  const events: string[] = [];
  let gate: Promise<void> | undefined;
  const store: TokenStore = {
    get: () => inner.get(),
    async set(tokens) {
      events.push(`set ${tokens.accessToken}`);
      await gate;
      writes.push({ ...tokens });
      await inner.set(tokens);
      events.push(`stored ${tokens.accessToken}`);
    },
    clear: () => inner.clear(),
  };
  const hold = () => {
    let release = () => {};
    gate = new Promise((resolve) => {
      release = resolve;
    });
    return () => {
      gate = undefined;
      release();
    };
  };
  return { store, writes, events, hold };
}

describe("refresh token rotation", () => {
  it("stores the new token set before anyone uses the new access token", async () => {
    const { store, events, hold } = recordingStore();
    let server: FakeServer | undefined;
    const s = setup({
      store,
      fetch: async (request) => {
        const auth = request.headers.get("Authorization");
        if (auth) {
          events.push(`use ${auth.slice("Bearer ".length)}`);
        }
        return (server as FakeServer).fetch(request);
      },
    });
    server = s.server;
    await s.auth.fetch(ACCOUNTS);
    moveTo(s.clock, momentsNow(s.clock, s.auth).unservable); // callers wait for the renewal
    const release = hold();
    const pending = s.auth.fetch(ACCOUNTS);
    await vi.waitFor(() => expect(events.filter((e) => e.startsWith("set "))).toHaveLength(2), {
      interval: 1,
    });
    const renewed = (events.at(-1) as string).slice("set ".length);
    expect(events).not.toContain(`use ${renewed}`); // the write is still held back
    release();
    expect((await pending).status).toBe(200);
    expect(events.indexOf(`stored ${renewed}`)).toBeLessThan(events.indexOf(`use ${renewed}`));
  });

  it("sends the newest refresh token on every refresh", async () => {
    const { store, writes } = recordingStore();
    const s = setup({ store });
    await s.auth.getAccessToken();
    for (let i = 0; i < 5; i++) {
      s.clock.advance(300_000);
      await s.auth.getAccessToken();
    }
    expect(s.server.calls.refresh).toBe(5);
    expect(s.server.calls.exchange).toBe(1); // no refresh was refused
    expect(s.server.refreshTokensSent).toEqual(writes.slice(0, 5).map((w) => w.refreshToken));
    expect(new Set(s.server.refreshTokensSent).size).toBe(5);
  });

  it("keeps the old refresh token when a refresh answers without one, and never stores an empty one", async () => {
    const { store, writes } = recordingStore();
    const s = setup({ store }, { refreshWithoutRefreshToken: true });
    await s.auth.getAccessToken();
    const original = writes[0]?.refreshToken;
    expect([...s.server.secrets]).toContain(original);
    for (let i = 0; i < 3; i++) {
      s.clock.advance(300_000);
      await s.auth.getAccessToken();
    }
    expect(s.server.calls.refresh).toBe(3);
    expect(writes.map((w) => w.refreshToken)).toEqual([original, original, original, original]);
    expect(s.server.refreshTokensSent).toEqual([original, original, original]);
  });

  it("calls onTokens after every new token set, once stored", async () => {
    const { store, writes } = recordingStore();
    const seen: Array<[string, number]> = [];
    const s = setup({ store, onTokens: (t) => void seen.push([t.accessToken, writes.length]) });
    await s.auth.getAccessToken(); // exchange
    moveTo(s.clock, momentsNow(s.clock, s.auth).inWindow);
    await s.auth.getAccessToken(); // proactive refresh in the background
    await vi.waitFor(() => expect(seen).toHaveLength(2), { interval: 1 });
    await s.auth.refresh(); // explicit
    s.server.expireAccessTokens();
    await s.auth.fetch(ACCOUNTS); // after a 401
    expect(seen).toHaveLength(4);
    expect(seen.map(([, stored]) => stored)).toEqual([1, 2, 3, 4]);
    expect(seen.map(([token]) => token)).toEqual(writes.map((w) => w.accessToken));
  });

  it("keeps the new tokens in memory when the store cannot save them, and says so", async () => {
    const failing: TokenStore = {
      get: async () => undefined,
      set: async () => {
        throw new Error("disk full");
      },
      clear: async () => {},
    };
    const s = setup({ store: failing });
    const first = await s.auth.getAccessToken();
    expect(await s.auth.getAccessToken()).toBe(first);
    s.clock.advance(300_000);
    await s.auth.getAccessToken();
    expect(s.server.calls.exchange).toBe(1); // the refresh token in memory was used
    expect(s.server.calls.refresh).toBe(1);
    expect(s.logs.filter((l) => l.startsWith("error The token store could not save"))).toHaveLength(2);
  });

  it("keeps going when onTokens throws", async () => {
    const s = setup({
      onTokens: () => {
        throw new Error("listener broke");
      },
    });
    expect(await s.auth.getAccessToken()).toMatch(/^ey/);
    expect(s.logs.some((l) => l.startsWith("error onTokens failed"))).toBe(true);
  });
});
