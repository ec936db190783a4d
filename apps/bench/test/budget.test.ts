// The size budgets of what a browser app ships, checked on every `pnpm test`: the bundles are built
// from the packages' dist (turbo builds them first) and held against size-budget.json.
import { describe, expect, it } from "vitest";
import {
  BudgetFileError,
  checkBudgets,
  formatBudgetResults,
  loadBudgets,
  parseBudgets,
} from "../src/budget.ts";
import { isSize, measureSize, OWN_ENTRIES } from "../src/sizes.ts";

const sizes = await Promise.all(OWN_ENTRIES.map((entry) => measureSize(entry)));

describe("size budgets", () => {
  it("hold for the client, the auth package and both together", async () => {
    const results = checkBudgets(sizes, await loadBudgets());
    console.log(formatBudgetResults(results).join("\n"));
    expect(results.map((r) => r.name)).toEqual(OWN_ENTRIES.map((e) => e.name));
    expect(results.flatMap((r) => r.problems.map((p) => `${r.name}: ${p}`))).toEqual([]);
  });
});

describe("the budget checker", () => {
  const client = sizes.find((s) => s.name === "@engage-voice/client");

  it("fails a bundle over a tiny limit and names it with both figures", () => {
    if (!client || !isSize(client)) {
      throw new Error("the client bundle was not measured");
    }
    const [result] = checkBudgets([client], [{ name: client.name, minified: 100, gzip: 50 }]);
    expect(result?.problems).toEqual([
      `minified ${client.minified} B is over its budget of 100 B`,
      `min+gzip ${client.gzip} B is over its budget of 50 B`,
    ]);
    expect(formatBudgetResults(result ? [result] : [])[0]).toMatch(/^FAIL @engage-voice\/client: /);
  });

  it("passes a bundle exactly at its limit", () => {
    if (!client || !isSize(client)) {
      throw new Error("the client bundle was not measured");
    }
    const [result] = checkBudgets(
      [client],
      [{ name: client.name, minified: client.minified, gzip: client.gzip }],
    );
    expect(result?.problems).toEqual([]);
  });

  it("fails a budget whose bundle cannot be built or was not measured", async () => {
    const broken = await measureSize({
      name: "broken",
      source: `export * from "@engage-voice/no-such-package";`,
    });
    const results = checkBudgets(
      [broken],
      [
        { name: "broken", minified: 1_000, gzip: 1_000 },
        { name: "absent", minified: 1_000, gzip: 1_000 },
      ],
    );
    expect(results[0]?.problems[0]).toMatch(
      /^could not be bundled: Could not resolve "@engage-voice\/no-such-package"/,
    );
    expect(results[1]?.problems).toEqual(["no bundle was measured"]);
  });

  it.each([
    [{}, "budgets must be a non-empty array"],
    [{ budgets: [{ name: "", minified: 1, gzip: 1 }] }, "budgets[0].name"],
    [{ budgets: [{ name: "x", minified: "10 kB", gzip: 1 }] }, "budgets[0].minified"],
    [{ budgets: [{ name: "x", minified: 1, gzip: -1 }] }, "budgets[0].gzip"],
  ])("refuses the budget file %j with a typed error", (json, message) => {
    expect(() => parseBudgets(json)).toThrow(BudgetFileError);
    expect(() => parseBudgets(json)).toThrow(message);
  });
});
