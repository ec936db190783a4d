// The hosts of these tests: each transform of the test kit's hostile layer changes what the client
// sees, and the sandbox under it still decides (a rewritten token is mapped back, so it expires when
// the sandbox says).
import { decodeClaims } from "@engage-voice/sandbox/app";
import { describe, expect, it } from "vitest";
import {
  BASE,
  fakeClock,
  fakeServer,
  LEGACY_BASE,
  LEGACY_USER,
  PARENT_TOKEN,
  type ServerOptions,
  START,
} from "./fake-server.js";

type Hosts = ReturnType<typeof fakeServer>;
const ACCOUNTS = `${BASE}/voice/api/v1/admin/accounts`;

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

async function exchange(hosts: Hosts, rcAccessToken = PARENT_TOKEN) {
  const url = `${BASE}/api/auth/login/rc/accesstoken?includeRefresh=true`;
  return hosts.fetch(new Request(url, form({ rcAccessToken, rcTokenType: "Bearer" })));
}

async function refresh(hosts: Hosts, refreshToken: string) {
  const url = `${BASE}/api/auth/token/refresh`;
  return hosts.fetch(new Request(url, form({ refresh_token: refreshToken, rcTokenType: "Bearer" })));
}

const accounts = (hosts: Hosts, token: string) =>
  hosts.fetch(new Request(ACCOUNTS, { headers: { Authorization: `Bearer ${token}` } }));

function hostsWith(options: Omit<ServerOptions, "clock"> = {}, start = START) {
  const clock = fakeClock(start);
  return { clock, hosts: fakeServer({ clock, ...options }) };
}

describe("the fake hosts: the sandbox behind the hostile layer", () => {
  it.each([
    ["without iat", { iat: false }],
    ["opaque", { jwt: false }],
  ] as [string, Omit<ServerOptions, "clock">][])(
    "an access token %s is the sandbox's underneath: it works, and expires when the sandbox says",
    async (_, options) => {
      const { hosts } = hostsWith(options);
      const { accessToken } = (await (await exchange(hosts)).json()) as { accessToken: string };
      if (options.jwt === false) {
        expect(accessToken.split(".")).toHaveLength(1);
      } else {
        expect(decodeClaims(accessToken)).not.toHaveProperty("iat");
        expect(decodeClaims(accessToken)).toHaveProperty("exp");
      }
      expect((await accounts(hosts, accessToken)).status).toBe(200);
      hosts.expireAccessTokens();
      const expired = await accounts(hosts, accessToken);
      expect([expired.status, await expired.text()]).toEqual([401, "Jwt is expired"]);
      expect(hosts.expiredAnswers()).toBe(1);
    },
  );

  it("a token below the sandbox's least lifetime is issued already expired", async () => {
    const { hosts } = hostsWith({ lifetimeSeconds: 0 });
    const { accessToken } = (await (await exchange(hosts)).json()) as { accessToken: string };
    const claims = decodeClaims(accessToken);
    expect(claims?.exp).toBe(claims?.iat);
  });

  it("refresh answers without a refresh token: the one held keeps working while the sandbox rotates", async () => {
    const { hosts } = hostsWith({ refreshWithoutRefreshToken: true });
    const { refreshToken } = (await (await exchange(hosts)).json()) as { refreshToken: string };
    for (let i = 0; i < 3; i++) {
      const answer = await refresh(hosts, refreshToken);
      expect(answer.status).toBe(200);
      expect(await answer.json()).not.toHaveProperty("refreshToken");
    }
    expect(hosts.refreshTokensSent).toEqual([refreshToken, refreshToken, refreshToken]);
    hosts.revokeRefreshTokens();
    expect((await refresh(hosts, refreshToken)).status).toBe(401);
  });

  it("exp rounded up is the ceiling of the exact expiry, and the sandbox holds the token to it", async () => {
    const { clock, hosts } = hostsWith({ lifetimeSeconds: 2, expRounding: "up" }, START + 937);
    const { accessToken } = (await (await exchange(hosts)).json()) as { accessToken: string };
    const exp = decodeClaims(accessToken)?.exp as number;
    expect(exp).toBe(Math.ceil((START + 937 + 2_000) / 1000));
    clock.advance(exp * 1000 - clock.now() - 1);
    expect((await accounts(hosts, accessToken)).status).toBe(200);
    expect(hosts.remainingAtUse).toEqual([1]);
    clock.advance(1);
    expect((await accounts(hosts, accessToken)).status).toBe(401);
  });

  it("the sandbox's clock is the fake clock plus the skew, and Date follows it unless left out", async () => {
    const skewMs = 600_000;
    const { clock, hosts } = hostsWith({ skewMs });
    expect(hosts.serverNow()).toBe(clock.now() + skewMs);
    expect((await exchange(hosts)).headers.get("Date")).toBe(new Date(clock.now() + skewMs).toUTCString());
    const { hosts: dateless } = hostsWith({ date: false });
    expect((await exchange(dateless)).headers.has("Date")).toBe(false);
  });

  it("error answers echo the credential sent, so that tests prove no error quotes it", async () => {
    const { hosts } = hostsWith();
    const refused = await exchange(hosts, "rc-echoed-secret");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ details: "rc-echoed-secret" });
    const query = new URLSearchParams({ ...LEGACY_USER, password: "wrong-echoed" });
    const login = await hosts.fetch(
      new Request(`${LEGACY_BASE}/api/auth/login/admin?${query}`, { method: "POST" }),
    );
    expect(await login.json()).toMatchObject({ details: `${LEGACY_USER.username}:wrong-echoed` });
  });

  it("the direct login takes the sandbox's seeded user with a password that needs encoding", async () => {
    const { hosts } = hostsWith();
    const query = new URLSearchParams(LEGACY_USER);
    const login = await hosts.fetch(
      new Request(`${LEGACY_BASE}/api/auth/login/admin?${query}`, { method: "POST" }),
    );
    expect(login.status).toBe(200);
    expect(hosts.calls.login).toBe(1);
  });

  it("an added API token is the sandbox's: listed, and deleted through the sandbox", async () => {
    const { hosts } = hostsWith();
    const added = await hosts.addApiToken();
    const url = `${LEGACY_BASE}/voice/api/v1/admin/token`;
    const byToken = { headers: { "X-Auth-Token": added } };
    expect(await (await hosts.fetch(new Request(url, byToken))).json()).toEqual([added]);
    const deleted = await hosts.fetch(new Request(`${url}/${added}`, { method: "DELETE", ...byToken }));
    expect(deleted.status).toBe(200);
    expect((await hosts.fetch(new Request(url, byToken))).status).toBe(401);
  });

  it("queued faults answer in place of the sandbox; a lost answer's work is done", async () => {
    const { hosts } = hostsWith();
    const { refreshToken } = (await (await exchange(hosts)).json()) as { refreshToken: string };
    hosts.fail("refresh", { status: 503, body: "busy" }, "lost");
    expect((await refresh(hosts, refreshToken)).status).toBe(503);
    await expect(refresh(hosts, refreshToken)).rejects.toThrow(/socket hang up/);
    // The lost refresh rotated: the token is spent, and presenting it again revokes its session.
    expect((await refresh(hosts, refreshToken)).status).toBe(401);
    expect(hosts.calls.refresh).toBe(3);
  });
});
