import { createClient } from "@engage-voice/client";
import { describe, expect, it } from "vitest";
import { memoryStore, type TokenStore } from "../src/index.js";
import { lockingRules } from "../src/store-kit.js";
import { BASE, hostsFor, setup } from "./fake-server.js";

const many = <T>(count: number, task: () => Promise<T>) => Promise.all(Array.from({ length: count }, task));

describe("one token call for all concurrent callers", () => {
  it("getAccessToken: hundreds of callers, one exchange, then one refresh", async () => {
    const { auth, server, clock } = setup();
    const first = await many(300, () => auth.getAccessToken());
    expect(new Set(first).size).toBe(1);
    expect(server.calls.exchange).toBe(1);
    clock.advance(301_000);
    const second = await many(300, () => auth.getAccessToken());
    expect(new Set(second).size).toBe(1);
    expect(second[0]).not.toBe(first[0]);
    expect(server.calls.refresh).toBe(1);
    expect(server.calls.exchange).toBe(1);
  });

  it("middleware: hundreds of requests, one exchange, then one refresh", async () => {
    const { auth, server, clock } = setup();
    const client = createClient({ baseUrl: BASE, fetch: server.fetch });
    client.use(auth.middleware);
    const first = await many(200, () => client.GET("/voice/api/v1/admin/accounts"));
    expect(first.every((r) => r.response.status === 200)).toBe(true);
    expect(server.calls.exchange).toBe(1);
    clock.advance(301_000);
    const second = await many(200, () => client.GET("/voice/api/v1/admin/accounts"));
    expect(second.every((r) => r.response.status === 200)).toBe(true);
    expect(server.calls.refresh).toBe(1);
    expect(server.calls.accounts).toBe(400);
  });

  it("fetch: hundreds of requests, one exchange, then one refresh", async () => {
    const { auth, server, clock } = setup();
    const url = `${BASE}/voice/api/v1/admin/accounts`;
    const first = await many(200, () => auth.fetch(url));
    expect(first.every((r) => r.status === 200)).toBe(true);
    expect(server.calls.exchange).toBe(1);
    clock.advance(301_000);
    const second = await many(200, () => auth.fetch(new Request(url)));
    expect(second.every((r) => r.status === 200)).toBe(true);
    expect(server.calls.refresh).toBe(1);
  });

  it("all three together share one exchange", async () => {
    const { auth, server } = setup();
    const client = createClient({ baseUrl: BASE, fetch: server.fetch });
    client.use(auth.middleware);
    await Promise.all([
      many(50, () => auth.getAccessToken()),
      many(50, () => client.GET("/voice/api/v1/admin/accounts")),
      many(50, () => auth.fetch(`${BASE}/voice/api/v1/admin/accounts`)),
      many(5, () => auth.refresh()),
    ]);
    expect(server.totalTokenCalls()).toBe(1);
  });

  it("two managers on a store with a lock renew once between them", async () => {
    const { clock, server, managerOn } = hostsFor();
    const shared = memoryStore();
    let queue: Promise<unknown> = Promise.resolve();
    const locked: TokenStore = {
      ...shared,
      lockingRules,
      lock: (task) => {
        const run = queue.then(() => task());
        queue = run.catch(() => {});
        return run;
      },
    };
    const make = () => managerOn(locked, { sleep: undefined, random: undefined }).auth;
    const [a, b] = [make(), make()];
    const [ta, tb] = await Promise.all([a.getAccessToken(), b.getAccessToken()]);
    expect(ta).toBe(tb);
    expect(server.calls.exchange).toBe(1);
    clock.advance(301_000);
    const [ra, rb] = await Promise.all([a.getAccessToken(), b.getAccessToken()]);
    expect(ra).toBe(rb);
    expect(server.calls.refresh).toBe(1);
    expect(server.calls.exchange).toBe(1);
  });
});
