// A token set serves only the credentials it came from: every set is stamped with its tenant, a
// stored set of another tenant is refused loudly, and an answer for another main account than the
// tenant's session is not used.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createTenantPool,
  createTokenManager,
  EngageVoiceAuthError,
  memoryStore,
  TENANT_PATTERN,
  TenantMismatchError,
  type TokenStore,
} from "../src/index.js";
import { fileStore } from "../src/node.js";
import { hostsFor } from "./fake-server.js";

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function tokenFile(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "tenants-"));
  folders.push(folder);
  return join(folder, "tokens.json");
}

const stores: [string, () => Promise<TokenStore>][] = [
  ["a memory store", async () => memoryStore()],
  ["a file store", async () => fileStore(await tokenFile())],
];

describe.each(stores)("one store given to two tenants by mistake: %s", (_name, makeStore) => {
  it("tenant B never gets tenant A's session: refused loudly, with the fix, and nothing is sent", async () => {
    const { server, managerOn } = hostsFor();
    const store = await makeStore();
    const a = managerOn(store, { tenant: "acme" });
    await a.auth.getAccessToken();
    expect(server.calls.exchange).toBe(1);

    const b = managerOn(store, { tenant: "globex" });
    const error = await b.auth.getAccessToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TenantMismatchError);
    expect((error as TenantMismatchError).code).toBe("tenant_mismatch");
    expect((error as Error).message).toMatch(/store of tenant "globex" holds a token set of tenant "acme"/);
    expect((error as Error).message).toMatch(/store of its own/);
    expect(b.logs.join("\n")).toMatch(/tenant "acme"/);
    // B neither used A's tokens nor replaced them.
    expect(server.calls.exchange).toBe(1);
    expect(server.calls.refresh).toBe(0);
    expect((await store.get())?.tenant).toBe("acme");
    expect(await a.auth.getAccessToken()).toBeTruthy();
  });

  it("a set stamped with no tenant (written by hand) is refused as well", async () => {
    const { managerOn } = hostsFor();
    const store = await makeStore();
    await managerOn(store, { tenant: "acme" }).auth.getAccessToken();
    const { tenant: _tenant, ...unstamped } = { ...(await store.get()) } as Record<string, unknown>;
    await store.clear();
    await store.set(unstamped as never);
    const error = await managerOn(store, { tenant: "acme" })
      .auth.getAccessToken()
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/holds a token set of no tenant/);
  });

  it("each tenant on its own store keeps its own session", async () => {
    const { server, managerOn } = hostsFor();
    const a = managerOn(await makeStore(), { tenant: "acme" });
    const b = managerOn(await makeStore(), { tenant: "globex" });
    expect(await a.auth.getAccessToken()).not.toBe(await b.auth.getAccessToken());
    expect(server.calls.exchange).toBe(2);
  });
});

describe("the tenant option", () => {
  it("is required with a store that does not name one", () => {
    const { managerOn } = hostsFor();
    expect(() => managerOn(undefined, { store: memoryStore() })).toThrow(/a store needs the tenant/);
  });

  it("is taken from a store that names it, and must match it when given too", async () => {
    const { managerOn } = hostsFor();
    const named = { ...memoryStore(), tenant: "acme" };
    const { auth } = managerOn(undefined, { store: named });
    await auth.getAccessToken();
    expect((await named.get())?.tenant).toBe("acme");
    expect(() => managerOn(undefined, { store: named, tenant: "globex" })).toThrow(
      /tenant "globex" was given a store of tenant "acme"/,
    );
  });

  it.each([
    "",
    "a b",
    "{acme}",
    "acme:tokens",
    "acme/../x",
    "acme\nlevel=error",
    "-acme",
    "-",
    "a".repeat(101),
    42,
  ])("refuses %j, saying what a tenant id may hold and what it got, without quoting it", (tenant) => {
    expect(() => createTokenManager({ rcAccessToken: "rc", tenant: tenant as string })).toThrow(
      /tenant must be 1 to 100 letters, digits, dots, underscores or hyphens.*; got (a string of (1 character|\d+ characters)|number)/,
    );
    if (typeof tenant === "string" && tenant.length > 3) {
      expect(() => createTokenManager({ rcAccessToken: "rc", tenant })).not.toThrow(tenant);
    }
    expect(typeof tenant === "string" && TENANT_PATTERN.test(tenant)).toBe(false);
  });

  it("is 'default' without a store: the session is the manager's own", async () => {
    const { auth } = hostsFor().managerOn();
    await auth.getAccessToken();
    expect(JSON.stringify(await auth.refresh())).toMatch(/"tenant":"default"/);
  });
});

describe("an answer for another main account than the tenant's session", () => {
  /** A token host whose answers claim the main account `account.id`. */
  function hostOf(account: { id: string }) {
    let n = 0;
    const fetch = async () => {
      n++;
      return Response.json({
        accessToken: `access-${n}`,
        refreshToken: `refresh-${n}`,
        mainAccountId: account.id,
        agentDetails: [{ accountId: account.id }],
      });
    };
    return { fetch, calls: () => n };
  }

  it("is not used, nor stored: the parent token has become another customer's", async () => {
    const account = { id: "111" };
    const host = hostOf(account);
    const store = memoryStore();
    const auth = createTokenManager({
      rcAccessToken: "rc",
      tenant: "acme",
      store,
      fetch: host.fetch,
      logger: {},
    });
    const first = await auth.getAccessToken();
    account.id = "222";
    const error = await auth.refresh().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TenantMismatchError);
    expect((error as Error).message).toMatch(/answered for another main account/);
    expect(await auth.getAccessToken()).toBe(first);
    expect((await store.get())?.accessToken).toBe(first);
  });

  it("is taken after logout(), which ends the tenant's session on purpose", async () => {
    const account = { id: "111" };
    const host = hostOf(account);
    const auth = createTokenManager({ rcAccessToken: "rc", tenant: "acme", fetch: host.fetch, logger: {} });
    await auth.getAccessToken();
    await auth.logout();
    account.id = "222";
    await auth.getAccessToken();
    expect(auth.session()?.mainAccountId).toBe("222");
    expect(EngageVoiceAuthError).toBeDefined();
  });
});

describe("one tenant id given to two customers' credentials", () => {
  /** A token host whose answers name the main account of the parent token they were given. */
  const hostOf = () => {
    let n = 0;
    const fetch = async (request: Request) => {
      const body = await request.clone().text();
      const account = body.includes("rc-customer-b") ? "222" : "111";
      n++;
      return Response.json({
        accessToken: `access-${account}-${n}`,
        refreshToken: `refresh-${account}-${n}`,
        mainAccountId: account,
      });
    };
    return fetch;
  };

  it("with mainAccountId bound, the second customer's manager refuses the first's stored session", async () => {
    const store = memoryStore();
    const fetch = hostOf();
    const first = createTokenManager({
      rcAccessToken: "rc-customer-a",
      tenant: "acme",
      store,
      fetch,
      logger: {},
    });
    await first.getAccessToken();
    const second = createTokenManager({
      rcAccessToken: "rc-customer-b",
      tenant: "acme",
      mainAccountId: "222",
      store,
      fetch,
      logger: {},
    });
    const error = await second.getAccessToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TenantMismatchError);
    expect((error as Error).message).toMatch(
      /holds a session of another main account.*give each customer a tenant id of its own.*logout\(\)/,
    );
  });

  it("with mainAccountId bound, an answer for another account is refused before anyone gets it", async () => {
    const auth = createTokenManager({
      rcAccessToken: "rc-customer-a",
      tenant: "acme",
      mainAccountId: "222",
      fetch: hostOf(),
      logger: {},
    });
    await expect(auth.getAccessToken()).rejects.toBeInstanceOf(TenantMismatchError);
    expect(auth.session()).toBeUndefined();
  });

  it("without a binding, a session that exchanged itself refuses a stored set of another account", async () => {
    const store = memoryStore();
    const fetch = hostOf();
    const a = createTokenManager({
      rcAccessToken: "rc-customer-a",
      tenant: "acme",
      store,
      fetch,
      logger: {},
    });
    await a.getAccessToken();
    const b = createTokenManager({
      rcAccessToken: "rc-customer-b",
      tenant: "acme",
      store: memoryStore(),
      fetch,
      logger: {},
    });
    const bSet = await b.refresh(); // b's own exchange: bound to 222 from now on
    await store.set(bSet); // b's set lands in a's key (a mapping bug)
    await expect(a.refresh()).rejects.toBeInstanceOf(TenantMismatchError);
  });

  it("refuses a mainAccountId that is not an account id, saying what it got", () => {
    expect(() => createTokenManager({ rcAccessToken: "rc", mainAccountId: 99 as never })).toThrow(
      /mainAccountId must be the main account id .*got number/,
    );
    expect(() => createTokenManager({ rcAccessToken: "rc", mainAccountId: null as never })).toThrow(
      /; got null$/,
    );
    // A string in the wrong place may be a pasted credential: described, never quoted.
    const pasted = `${"x".repeat(100)}-secret-9f2c`;
    const refused = (() => {
      try {
        createTokenManager({ rcAccessToken: "rc", mainAccountId: pasted });
      } catch (error) {
        return String((error as Error).message);
      }
      return "";
    })();
    expect(refused).toMatch(/got a string of 112 characters/);
    expect(refused).not.toContain("secret-9f2c");
    expect(() => createTenantPool({ rcAccessToken: () => "rc", mainAccountId: "222" as never })).toThrow(
      /mainAccountId/,
    );
  });

  it("a pool binds each tenant to the account mainAccountId(tenant) names", async () => {
    const pool = createTenantPool({
      rcAccessToken: (tenant) => (tenant === "b" ? "rc-customer-b" : "rc-customer-a"),
      mainAccountId: (tenant) => (tenant === "b" ? "222" : "111"),
      manager: { fetch: hostOf(), logger: {} },
    });
    expect(await pool.get("a").getAccessToken()).toMatch(/access-111/);
    expect(await pool.get("b").getAccessToken()).toMatch(/access-222/);
    const wrong = createTenantPool({
      rcAccessToken: () => "rc-customer-a",
      mainAccountId: () => "222",
      manager: { fetch: hostOf(), logger: {} },
    });
    await expect(wrong.get("a").getAccessToken()).rejects.toBeInstanceOf(TenantMismatchError);
  });
});
