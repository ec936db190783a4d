// Many tenants in one sandbox, as a software vendor runs one service for many customers: each
// tenant a main account with its own users and parent tokens, its own exchange window by default,
// its own counters; seeded lazily, so ten thousand cost what one does.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { createSandboxApps, SandboxOptionsError } from "../src/app.js";
import { parseCliArgs } from "../src/cli-args.js";
import { describeSandbox } from "../src/describe.js";
import { resolveOptions } from "../src/options.js";
import { KeyedWindows } from "../src/rate-limit.js";
import { MAX_TENANTS } from "../src/seed.js";
import { SandboxState } from "../src/state.js";
import {
  bearer,
  call,
  exchange,
  expectApiError,
  expectConforms,
  manualClock,
  open,
  refresh,
} from "./helpers.js";

const accounts = "/voice/api/v1/admin/accounts";
const users = "/voice/api/v1/admin/users?flatten=true";
const admin = (
  sandbox: { tenant(index: number): { parentTokens: { token: string; roles: string[] }[] } },
  i: number,
) => sandbox.tenant(i).parentTokens.find(({ roles }) => roles.includes("SUPER_USER"))?.token as string;

describe("tenants", () => {
  it("names each tenant's credentials by one documented pattern", async () => {
    const sandbox = await open({ tenants: 3 });
    expect(sandbox.settings.tenants).toBe(3);
    expect(sandbox.tenant(2)).toEqual({
      index: 2,
      mainAccountId: "299990000",
      accountIds: ["299990001", "299990002", "299990003"],
      parentTokens: [
        {
          token: "sandbox-rc-token-tenant-2-ada",
          userId: 21001,
          userName: "ada.example@tenant-2.example.com",
          roles: ["SUPER_USER"],
        },
        {
          token: "sandbox-rc-token-tenant-2-rob",
          userId: 21004,
          userName: "rob.agent@tenant-2.example.com",
          roles: ["USER"],
        },
      ],
      legacyLogins: [
        {
          username: "lee.legacy@tenant-2.example.com",
          password: "sandbox-password",
          platformId: "sandbox-platform",
          userId: 21003,
        },
      ],
    });
    expect(sandbox.tenant(0)).toEqual({ index: 0, ...sandbox.seed });
  });

  it("answers each tenant's exchange with its own account data, and its accounts and users only", async () => {
    const sandbox = await open({ tenants: 3 });
    const seen = new Set<string>();
    for (const i of [0, 1, 3]) {
      const seed = sandbox.tenant(i);
      const answer = await exchange(sandbox.mainUrl, admin(sandbox, i));
      expect(answer.status).toBe(200);
      expectConforms(answer);
      expect(answer.json.mainAccountId).toBe(seed.mainAccountId);
      expect(seed.accountIds).toContain(answer.json.agentDetails[0].accountId);
      seen.add(answer.json.mainAccountId);

      const listed = await call(sandbox.mainUrl, accounts, bearer(answer.json.accessToken));
      expectConforms(listed);
      expect(listed.json.map((account: { accountId: string }) => account.accountId)).toEqual(seed.accountIds);
      expect(new Set(listed.json.map((account: { mainAccountId: string }) => account.mainAccountId))).toEqual(
        new Set([seed.mainAccountId]),
      );

      const people = await call(sandbox.mainUrl, users, bearer(answer.json.accessToken));
      expectConforms(people);
      const domain = i === 0 ? "@example.com" : `@tenant-${i}.example.com`;
      for (const user of people.json as { userName: string; parentPath: string }[]) {
        expect(user.userName.endsWith(domain)).toBe(true);
      }
    }
    expect(seen.size).toBe(3);
  });

  it("a tenant's agent sees its own sub-account; its refresh and direct login stay in the tenant", async () => {
    const sandbox = await open({ tenants: 2 });
    const rob = await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-2-rob");
    expect(rob.json.agentDetails[0]).toMatchObject({
      accountId: "299990002",
      username: "rob.agent@tenant-2.example.com",
    });
    const own = await call(sandbox.mainUrl, accounts, bearer(rob.json.accessToken));
    expect(own.json.map((account: { accountId: string }) => account.accountId)).toEqual(["299990002"]);

    const renewed = await refresh(sandbox.mainUrl, rob.json.refreshToken);
    expect(renewed.status).toBe(200);
    expect(renewed.json.mainAccountId).toBe("299990000");

    const [login] = sandbox.tenant(1).legacyLogins;
    const query = new URLSearchParams({
      username: login?.username as string,
      password: login?.password as string,
      platformId: login?.platformId as string,
    });
    const lee = await call(sandbox.legacyUrl, `/api/auth/login/admin?${query}`, { method: "POST" });
    expect(lee.status).toBe(200);
    expectConforms(lee);
    expect(lee.json.mainAccountId).toBe("199990000");
  });

  it.each([
    ["a tenant past the count", "sandbox-rc-token-tenant-4-ada"],
    ["tenant 0 in the tenants' form", "sandbox-rc-token-tenant-0-ada"],
    ["a leading zero", "sandbox-rc-token-tenant-03-ada"],
    ["a user without a seeded token", "sandbox-rc-token-tenant-1-sam"],
  ])("refuses %s", async (_, token) => {
    const { mainUrl } = await open({ tenants: 3 });
    expectApiError(await exchange(mainUrl, token), 401, /RingCentral access token is invalid/);
  });

  it("without the option, no tenant token works and the seed is as before", async () => {
    const sandbox = await open();
    expect(sandbox.settings.tenants).toBe(0);
    expect((await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-1-ada")).status).toBe(401);
    expect(() => sandbox.tenant(1)).toThrow(
      /tenant\(index\) takes a tenant from 0 to 0 \(the tenants option\)/,
    );
  });

  it("parentTokens may name a tenant's user", async () => {
    const sandbox = await open({ tenants: 2, parentTokens: { "vendor-token": 21002 } });
    const answer = await exchange(sandbox.mainUrl, "vendor-token");
    expect(answer.json.agentDetails[0].username).toBe("sam.supervisor@tenant-2.example.com");
    expect(sandbox.tenant(2).parentTokens.map(({ token }) => token)).toContain("vendor-token");
  });
});

describe("the exchange rate limit with tenants", () => {
  const limit = { limit: 2, windowMs: 60_000 };

  it("by default each tenant has its own window: tenant 1 over its limit never refuses tenant 2 or 0", async () => {
    const clock = manualClock();
    const sandbox = await open({ tenants: 2, now: clock.now, exchangeRateLimit: limit });
    expect(sandbox.settings.exchangeRateLimitScope).toBe("tenant");
    for (let i = 0; i < 2; i++) {
      expect((await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-1-ada")).status).toBe(200);
    }
    // The tenant's users share its window.
    const limited = await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-1-rob");
    expectApiError(limited, 429, /Too many token exchanges/);
    expectConforms(limited);
    for (let i = 0; i < 2; i++) {
      expect((await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-2-ada")).status).toBe(200);
      expect((await exchange(sandbox.mainUrl, "sandbox-rc-token-ada")).status).toBe(200);
    }
    expect(sandbox.control.counters(1)).toMatchObject({ exchanges: 2, rateLimitedExchanges: 1 });
    expect(sandbox.control.counters(2)).toMatchObject({ exchanges: 2, rateLimitedExchanges: 0 });
    expect(sandbox.control.counters(0)).toMatchObject({ exchanges: 2, rateLimitedExchanges: 0 });
  });

  it('with exchangeRateLimitScope "global", one window for every tenant, as before tenants', async () => {
    const sandbox = await open({ tenants: 2, exchangeRateLimit: limit, exchangeRateLimitScope: "global" });
    expect((await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-1-ada")).status).toBe(200);
    expect((await exchange(sandbox.mainUrl, "sandbox-rc-token-ada")).status).toBe(200);
    expect((await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-2-ada")).status).toBe(429);
    expect(sandbox.control.counters(2)).toMatchObject({ exchanges: 0, rateLimitedExchanges: 1 });
  });

  it('with exchangeRateLimitScope "user", each user of a tenant has its own window', async () => {
    const sandbox = await open({ tenants: 1, exchangeRateLimit: limit, exchangeRateLimitScope: "user" });
    for (let i = 0; i < 2; i++) {
      expect((await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-1-ada")).status).toBe(200);
    }
    expect((await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-1-ada")).status).toBe(429);
    expect((await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-1-rob")).status).toBe(200);
  });

  it("resetRateLimits() empties every tenant's window", async () => {
    const sandbox = await open({ tenants: 1, exchangeRateLimit: { limit: 1, windowMs: 60_000 } });
    expect((await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-1-ada")).status).toBe(200);
    expect((await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-1-ada")).status).toBe(429);
    sandbox.control.resetRateLimits();
    expect((await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-1-ada")).status).toBe(200);
  });
});

describe("each tenant's counters", () => {
  it("count exchanges, refreshes and spent refresh tokens presented again, per tenant, until reset()", async () => {
    const sandbox = await open({ tenants: 2 });
    const first = (await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-2-ada")).json;
    const second = (await refresh(sandbox.mainUrl, first.refreshToken)).json;
    expect((await refresh(sandbox.mainUrl, second.refreshToken)).status).toBe(200);
    expect((await refresh(sandbox.mainUrl, first.refreshToken)).status).toBe(401); // spent: revokes
    expect((await refresh(sandbox.mainUrl, first.refreshToken)).status).toBe(401);
    expect(sandbox.control.counters(2)).toEqual({
      exchanges: 1,
      rateLimitedExchanges: 0,
      logins: 0,
      refreshes: 2,
      reusedRefreshTokens: 2,
    });
    expect(sandbox.control.counters(1)).toEqual({
      exchanges: 0,
      rateLimitedExchanges: 0,
      logins: 0,
      refreshes: 0,
      reusedRefreshTokens: 0,
    });
    expect(sandbox.control.counters()).toEqual(sandbox.control.counters(1));
    sandbox.control.reset();
    expect(sandbox.control.counters(2).exchanges).toBe(0);
  });

  it("are read over HTTP with --control, and a tenant out of range is refused", async () => {
    const sandbox = await open({ tenants: 1, control: { enabled: true } });
    await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-1-rob");
    const read = (body: unknown) =>
      call(sandbox.mainUrl, "/__sandbox/control", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const answer = await read({ action: "counters", tenant: 1 });
    expect(answer.status).toBe(200);
    expect(answer.json.counters).toMatchObject({ exchanges: 1 });
    expectApiError(await read({ action: "counters", tenant: 2 }), 400, /takes a tenant from 0 to 1/);
    expect(() => sandbox.control.counters(-1)).toThrow(RangeError);
  });
});

describe("many tenants", () => {
  it("ten thousand start at once: a tenant is built from its index when one of its credentials is used", async () => {
    const sandbox = await open({ tenants: 10_000 });
    expect(sandbox.tenant(10_000).mainAccountId).toBe("1000099990000");
    const answer = await exchange(sandbox.mainUrl, "sandbox-rc-token-tenant-10000-rob");
    expect(answer.json.agentDetails[0].username).toBe("rob.agent@tenant-10000.example.com");
    const state = new SandboxState(resolveOptions({ tenants: 10_000 }));
    expect(state.tenants.user(100001006)?.userName).toBe("nia.noaccess@tenant-10000.example.com");
    expect(state.tenants.user(100011001)).toBeUndefined(); // tenant 10001 is not seeded
  });

  it("keeps the exchange windows of the tenants active within a window, not of every tenant seen", () => {
    const clock = manualClock();
    const windows = new KeyedWindows({ limit: 5, windowMs: 60_000 });
    let most = 0;
    for (let i = 1; i <= 20_000; i++) {
      expect(windows.take(`tenant:${i}`, clock.now())).toBeUndefined();
      most = Math.max(most, windows.size);
      if (i % 1_000 === 0) {
        clock.advance(60_000);
      }
    }
    // 1,000 tenants exchange in each window; the map is swept when it has doubled.
    expect(most).toBeLessThanOrEqual(4_096);
  });

  it("describes any number of tenants in the same few lines", async () => {
    const describe = (tenants: number) =>
      describeSandbox({
        mainUrl: "http://127.0.0.1:1",
        legacyUrl: "http://127.0.0.1:2",
        ...createSandboxApps({ tenants }),
      });
    const few = describe(3);
    const many = describe(10_000);
    expect(many.split("\n")).toHaveLength(few.split("\n").length);
    expect(many).toContain("sandbox-rc-token-tenant-<i>-ada");
    expect(many).toContain("sandbox-rc-token-tenant-10000-ada");
    expect(many).toContain("Tenants 1 to 10000");
    expect(many).toContain("the exchange allows 5 calls in 60 s for each tenant");
    expect(describe(0)).not.toContain("Tenants");
  });

  it("the last tenant's ids are safe integers", () => {
    const apps = createSandboxApps({ tenants: MAX_TENANTS });
    const last = apps.tenant(MAX_TENANTS);
    for (const { userId } of [...last.parentTokens, ...last.legacyLogins]) {
      expect(Number.isSafeInteger(userId)).toBe(true);
    }
    const state = new SandboxState(resolveOptions({ tenants: MAX_TENANTS }));
    for (const user of state.tenants.tenant(MAX_TENANTS)?.users ?? []) {
      for (const id of [user.userId, user.agentId, user.adminId, user.rcUserId, user.agentGroupId ?? 0]) {
        expect(Number.isSafeInteger(id)).toBe(true);
      }
    }
  });
});

describe("bad values", () => {
  it.each([[-1], [1.5], [MAX_TENANTS + 1], ["3"], [Number.NaN]])(
    "tenants: %s is refused, naming the range",
    (tenants) => {
      expect(() => createSandboxApps({ tenants: tenants as number })).toThrow(SandboxOptionsError);
      expect(() => createSandboxApps({ tenants: tenants as number })).toThrow(
        `tenants must be an integer from 0 to ${MAX_TENANTS}`,
      );
    },
  );

  it.each([["account"], [""], [null]])(
    "exchangeRateLimitScope: %j is refused, naming the choices",
    (scope) => {
      expect(() => createSandboxApps({ exchangeRateLimitScope: scope as "tenant" })).toThrow(
        /exchangeRateLimitScope must be "tenant", "user" or "global"/,
      );
    },
  );

  it("parentTokens naming a user of a tenant not seeded is refused", () => {
    expect(() => createSandboxApps({ tenants: 1, parentTokens: { t: 21001 } })).toThrow(
      /unknown user id 21001/,
    );
  });

  it.each([
    [["--tenants=-1"], /--tenants must be an integer from 0 to 1000000/],
    [["--tenants", "1.5"], /--tenants must be an integer from 0 to 1000000/],
    [["--tenants", "1000001"], /--tenants must be an integer from 0 to 1000000/],
    [["--tenants"], /argument missing/],
    [["--exchange-limit-scope", "account"], /--exchange-limit-scope must be one of tenant, user, global/],
  ])("the flags refuse %j", (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(message);
  });

  it("the flags map to the options", () => {
    expect(parseCliArgs(["--tenants", "10000", "--exchange-limit-scope", "global"])).toMatchObject({
      tenants: 10_000,
      exchangeRateLimitScope: "global",
    });
  });
});

describe("the bin's --tenants and --exchange-limit-scope", () => {
  const bin = fileURLToPath(new URL("../bin/engage-voice-sandbox.js", import.meta.url));

  function start(args: string[]) {
    const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH ?? "" } });
    const output = { stdout: "", stderr: "" };
    child.stdout.on("data", (chunk) => (output.stdout += chunk));
    child.stderr.on("data", (chunk) => (output.stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
      }
    });
    return { child, exited, output };
  }

  it("seeds the tenants, prints them compactly, and applies the scope", async () => {
    const run = start(["--tenants", "10000", "--exchange-limit-scope", "global", "--exchange-limit", "1"]);
    while (!run.output.stdout.includes("Ctrl-C stops the sandbox.")) {
      if (run.child.exitCode !== null) {
        throw new Error(`exited early: ${run.output.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { stdout } = run.output;
    expect(stdout).toContain("Tenants 1 to 10000");
    expect(stdout).toContain("sandbox-rc-token-tenant-<i>-ada");
    expect(stdout).toContain("the exchange allows 1 calls in 60 s for all tenants together");
    expect(stdout.split("\n").length).toBeLessThan(60);
    const mainUrl = /\{base_url\}\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1] as string;
    const answer = await exchange(mainUrl, "sandbox-rc-token-tenant-9999-ada");
    expect(answer.status).toBe(200);
    expect(answer.json.mainAccountId).toBe("999999990000");
    expect((await exchange(mainUrl, "sandbox-rc-token-tenant-2-ada")).status).toBe(429);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
  });

  it.each([
    [["--tenants", "many"], /--tenants must be an integer from 0 to 1000000/],
    [["--exchange-limit-scope", "account"], /--exchange-limit-scope must be one of tenant, user, global/],
  ])("refuses %j: the reason and the usage on stderr, exit 2", async (args, message) => {
    const run = start(args);
    expect(await run.exited).toBe(2);
    expect(run.output.stderr).toMatch(message);
    expect(run.output.stderr).toContain("Usage: engage-voice-sandbox");
  });
});
