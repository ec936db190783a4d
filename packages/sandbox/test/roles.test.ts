import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { describeSandbox } from "../src/node.js";
import { SANDBOX_DEFAULTS } from "../src/options.js";
import { hasRole, ROLE_RULES, type RoleType, USERS } from "../src/seed.js";
import { openServer } from "./helpers.js";

// The sandbox's role rules: the handlers, the start-up text and the README read ROLE_RULES, so this
// table is the rule for all of them (admin.test.ts runs the handlers).
describe("ROLE_RULES", () => {
  it.each([
    [["SUPER_USER"], { listUsers: true, seeEveryAccount: true, noAccounts: false }],
    [["MANAGE_USERS"], { listUsers: true, seeEveryAccount: true, noAccounts: false }],
    [["USER"], { listUsers: false, seeEveryAccount: false, noAccounts: false }],
    [["NO_ACCESS"], { listUsers: false, seeEveryAccount: false, noAccounts: true }],
    [["USER", "MANAGE_USERS"], { listUsers: true, seeEveryAccount: true, noAccounts: false }],
    [["SUPER_USER", "NO_ACCESS"], { listUsers: true, seeEveryAccount: true, noAccounts: true }],
    [[], { listUsers: false, seeEveryAccount: false, noAccounts: false }],
  ] as [RoleType[], Record<keyof typeof ROLE_RULES, boolean>][])("%j may %j", (roles, expected) => {
    for (const rule of Object.keys(ROLE_RULES) as (keyof typeof ROLE_RULES)[]) {
      expect(hasRole(roles, rule)).toBe(expected[rule]);
    }
  });

  it("the start-up text says which seeded parent tokens cannot list users, by the rule", async () => {
    const sandbox = await openServer();
    const text = describeSandbox(sandbox);
    for (const { token, roles } of sandbox.seed.parentTokens) {
      const line = text.split("\n").find((l) => l.includes(token)) ?? "";
      expect(line.endsWith(": listing users answers 403)")).toBe(!hasRole(roles, "listUsers"));
    }
  });

  it("the seed has a user on each side of every rule", () => {
    for (const rule of Object.keys(ROLE_RULES) as (keyof typeof ROLE_RULES)[]) {
      expect(new Set(USERS.map((user) => hasRole(user.roles, rule)))).toEqual(new Set([true, false]));
    }
  });

  it("the README states the rules and the defaults as the code holds them", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    const row = (start: string) => readme.split("\n").find((line) => line.startsWith(start)) ?? "";
    const accounts = row("| accounts `GET");
    expect(accounts).toContain(`${ROLE_RULES.seeEveryAccount.join(" or ")}: every sub-account`);
    expect(accounts).toContain(`${ROLE_RULES.noAccounts.join(" or ")}: \`403\``);
    const users = row("| users `GET");
    expect(users).toContain(`${ROLE_RULES.listUsers.join(" or ")}, else \`403\``);
    expect(users).toContain(`${SANDBOX_DEFAULTS.usersRateLimit.limit} a minute`);
    expect(row("| exchange `POST")).toContain(`${SANDBOX_DEFAULTS.exchangeRateLimit.limit} calls a minute`);
    expect(row("| access tokens |")).toContain(
      `lifetime default ${SANDBOX_DEFAULTS.tokenLifetimeMs / 60_000} min`,
    );
  });
});
