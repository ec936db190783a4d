import { createClient } from "@engage-voice/client";
import { describe, expect, it } from "vitest";
import { BASE, fakeClock, hostsFor, START } from "./fake-server.js";

/**
 * Callers in each batch, all crossing the same instant together: without coalescing each of them
 * would make its own token call, so twenty show a missing one as plainly as a hundred did, at a fifth
 * of the run (four hundred calls in each lifetime, two thousand in each case).
 */
const CALLERS_PER_BATCH = 20;

// The server below enforces `exp` to the millisecond, and its clock does not sit on a whole second:
// whole-second claims then say a token was issued up to a second before it really was.
describe.each([
  [2, "down"],
  [2, "up"],
  [3, "down"],
  [3, "up"],
  [60, "down"],
  [60, "up"],
  [300, "down"],
  [300, "up"],
] as const)("a %i s token, exp rounded %s", (lifetimeSeconds, expRounding) => {
  it.each([0, 150])(
    "with a %i ms token call, hundreds of calls across each expiry: one token call per expiry, no 401",
    async (tokenLatencyMs) => {
      const { clock, server, managerOn } = hostsFor({
        clock: fakeClock(START + 937),
        lifetimeSeconds,
        expRounding,
        tokenLatencyMs,
      });
      const { auth } = managerOn(undefined, { sleep: undefined, random: undefined });
      const client = createClient({ baseUrl: BASE, fetch: server.fetch });
      client.use(auth.middleware);
      const step = (lifetimeSeconds * 1000) / 20;
      let batches = 0;
      for (let t = 0; t < lifetimeSeconds * 1000 * 5; t += step) {
        const before = server.totalTokenCalls();
        const answers = await Promise.all(
          Array.from({ length: CALLERS_PER_BATCH }, () => client.GET("/voice/api/v1/admin/accounts")),
        );
        expect(answers.every((a) => a.response.status === 200)).toBe(true);
        // However many callers cross an expiry together, it costs at most one token call.
        expect(server.totalTokenCalls() - before).toBeLessThanOrEqual(1);
        batches++;
        clock.advance(step);
      }
      expect(server.expiredAnswers()).toBe(0);
      expect(Math.min(...server.remainingAtUse)).toBeGreaterThan(0);
      expect(server.calls.exchange).toBe(1);
      // Five lifetimes: a renewal in each, never one per batch.
      expect(server.calls.refresh).toBeGreaterThanOrEqual(4);
      expect(server.calls.refresh).toBeLessThan(batches / 2);
    },
    // Two thousand calls on the fake clock: the verdict does not depend on time, only the run does.
    60_000,
  );
});

describe("tokens too short-lived to renew ahead", () => {
  it("a 1 s token: each call renews once (no loop), no 401, and one warning says why", async () => {
    const { clock, server, managerOn } = hostsFor({ clock: fakeClock(START + 937), lifetimeSeconds: 1 });
    const { auth, logs: lines } = managerOn(undefined, { sleep: undefined, random: undefined });
    const client = createClient({ baseUrl: BASE, fetch: server.fetch });
    client.use(auth.middleware);
    for (let i = 0; i < 10; i++) {
      const { response } = await client.GET("/voice/api/v1/admin/accounts");
      expect(response.status).toBe(200);
      clock.advance(50);
    }
    expect(server.totalTokenCalls()).toBe(10);
    expect(server.expiredAnswers()).toBe(0);
    expect(lines.filter((line) => line.includes("no time left to use it"))).toHaveLength(1);
  });

  it("a 2 s token with a 150 ms token call: a few token calls serve twenty calls, and no warning claims otherwise", async () => {
    // 2 s less the second of resolution and the round trip: under a second of life, yet fresh for a while.
    const { clock, server, managerOn } = hostsFor({
      clock: fakeClock(START + 937),
      lifetimeSeconds: 2,
      tokenLatencyMs: 150,
    });
    const { auth, logs: lines } = managerOn(undefined, { sleep: undefined, random: undefined });
    const client = createClient({ baseUrl: BASE, fetch: server.fetch });
    client.use(auth.middleware);
    for (let i = 0; i < 20; i++) {
      const { response } = await client.GET("/voice/api/v1/admin/accounts");
      expect(response.status).toBe(200);
      clock.advance(100);
    }
    expect(server.expiredAnswers()).toBe(0);
    expect(server.totalTokenCalls()).toBeLessThan(10);
    expect(lines.filter((line) => line.startsWith("warn"))).toEqual([]);
  });
});

describe("a slow token call", () => {
  // Issued just before a whole second ends, so whole-second `iat` and `Date` lag the real issue time
  // by nearly a second; the 900 ms the answer then took to travel back also counts against the token.
  it("a 900 ms token call: the expiry is the server's exp minus the round trip, never past the real exp", async () => {
    const latency = 900;
    const sentAt = START + 999 - latency / 2;
    const { managerOn } = hostsFor({
      clock: fakeClock(sentAt),
      lifetimeSeconds: 60,
      tokenLatencyMs: latency,
    });
    const { auth } = managerOn(undefined, { sleep: undefined, random: undefined });
    await auth.getAccessToken();
    const realExpiry = START + 60_000; // exp = floor(issue time) + 60 s, on a clock with no skew
    const expiresAt = auth.session()?.expiresAt ?? Number.NaN;
    expect(expiresAt).toBeLessThanOrEqual(realExpiry);
    // exp − server time − 1 s − round trip, counted from when the answer arrived.
    expect(expiresAt).toBe(sentAt + latency + (realExpiry - START) - 1_000 - latency);
  });
});
