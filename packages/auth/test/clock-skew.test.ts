import { createClient } from "@engage-voice/client";
import { describe, expect, it } from "vitest";
import { claims, toTokenSet } from "../src/tokens.js";
import { BASE, setup } from "./fake-server.js";

const MINUTES = 60_000;

describe("clock skew", () => {
  describe.each([
    ["server 10 minutes ahead, iat and Date", { skewMs: 10 * MINUTES }],
    ["server 10 minutes behind, iat and Date", { skewMs: -10 * MINUTES }],
    ["server 7 minutes ahead, Date only", { skewMs: 7 * MINUTES, iat: false }],
    ["server 7 minutes behind, iat only", { skewMs: -7 * MINUTES, date: false }],
  ])("%s", (_, serverOptions) => {
    it("follows the server's time: no refresh on every call, no expired token sent", async () => {
      const s = setup({}, serverOptions);
      const client = createClient({ baseUrl: BASE, fetch: s.server.fetch });
      client.use(s.auth.middleware);
      for (let second = 0; second < 1_200; second += 2) {
        const { response } = await client.GET("/voice/api/v1/admin/accounts");
        expect(response.status).toBe(200);
        s.clock.advance(2_000);
      }
      expect(s.server.calls.exchange).toBe(1);
      expect(s.server.calls.refresh).toBeGreaterThanOrEqual(4);
      expect(s.server.calls.refresh).toBeLessThanOrEqual(5);
      expect(s.server.calls.accounts).toBe(600); // not one 401 replayed
      expect(Math.min(...s.server.remainingAtUse)).toBeGreaterThanOrEqual(13_000);
    });

    it("puts expiresAt on the local clock", async () => {
      const s = setup({}, serverOptions);
      await s.auth.getAccessToken();
      const session = s.auth.session();
      // Within the second that the JWT's whole-second claims and the Date header can lose.
      expect(Math.abs((session?.expiresAt ?? 0) - (s.clock.now() + 5 * MINUTES))).toBeLessThanOrEqual(1_000);
    });
  });

  it("takes a token without exp to live 5 minutes from receipt", async () => {
    const s = setup({}, { jwt: false });
    await s.auth.getAccessToken();
    expect(s.auth.session()?.expiresAt).toBe(s.clock.now() + 5 * MINUTES);
  });

  it("never throws on a malformed JWT", () => {
    for (const token of ["", "a.b.c", "x.!!!.y", `h.${btoa("[1]")}.s`, `h.${btoa('{"exp":"soon"}')}.s`]) {
      expect(toTokenSet({ accessToken: token || "t" }, 1_000, null).expiresAt).toBe(1_000 + 5 * MINUTES);
    }
    expect(claims("h.e30.s")).toEqual({});
  });

  it("prefers the later of iat and Date, takes off their second and the round trip, and trusts the local clock without either", () => {
    const payload = (body: object) => `h.${btoa(JSON.stringify(body)).replace(/=+$/, "")}.s`;
    const now = Date.UTC(2025, 0, 1);
    const token = payload({ iat: now / 1000 - 100, exp: now / 1000 + 200 });
    // The server's clock may be up to a second past whole-second claims: the earliest expiry counts.
    expect(toTokenSet({ accessToken: token }, 5, new Date(now).toUTCString()).expiresAt).toBe(5 + 199_000);
    expect(toTokenSet({ accessToken: token }, 5, null).expiresAt).toBe(5 + 299_000);
    // ...and so may the time the answer took to come back.
    expect(toTokenSet({ accessToken: token }, 705, null, undefined, { sentAt: 5 }).expiresAt).toBe(
      705 + 298_300,
    );
    const bare = payload({ exp: now / 1000 + 60 });
    expect(toTokenSet({ accessToken: bare }, now, null).expiresAt).toBe(now + 60_000);
    expect(toTokenSet({ accessToken: bare }, now + 120_000, null).expiresAt).toBe(now + 120_000);
  });
});
