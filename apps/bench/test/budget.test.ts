// The size budgets of what a browser app ships, checked on every `pnpm test`: the bundles are built
// from the packages' dist (turbo builds them first) and held against size-budget.json, and every row
// of the size section against the bytes the last `pnpm bench` wrote to results.json.
import { describe, expect, it } from "vitest";
import {
  BudgetFileError,
  checkBudgets,
  coverageProblems,
  formatBudgetResults,
  loadBudgets,
  loadExclusions,
  parseBudgets,
  parseExclusions,
} from "../src/budget.ts";
import { measureCliSizes } from "../src/cli.ts";
import { isMeasured, REGENERATE, readResults } from "../src/results.ts";
import { measureAppRows, measureSizeRows } from "../src/size-rows.ts";
import {
  APP_ENTRY_NAME,
  bundle,
  COMBINED_ENTRIES,
  isSize,
  measureSize,
  OPT_INS,
  ownEntries,
  type SizeEntry,
} from "../src/sizes.ts";
import { publicPackages } from "../src/workspace.ts";

const excluded = await loadExclusions();
const entries = await ownEntries(excluded);
// The size section's rows (own entries and references), measured once for the budgets and results.json.
const sizes = await measureSizeRows();
const publicNames = (await publicPackages()).map((p) => p.name);

describe("size budgets", () => {
  it("hold for every public package's browser bundle, both packages together and an app's imports", async () => {
    const results = checkBudgets(sizes, await loadBudgets());
    console.log(formatBudgetResults(results).join("\n"));
    expect(results.map((r) => r.name).sort()).toEqual(entries.map((e) => e.name).sort());
    expect(results.flatMap((r) => r.problems.map((p) => `${r.name}: ${p}`))).toEqual([]);
  });

  it("cover every public package of the workspace: measured, or excluded with the reason", async () => {
    expect(publicNames).toEqual(expect.arrayContaining(["@engage-voice/client", "@engage-voice/auth"]));
    expect(coverageProblems(publicNames, await loadBudgets(), excluded)).toEqual([]);
    for (const name of publicNames) {
      expect(entries.some((e) => e.name === name) || name in excluded, name).toBe(true);
    }
  });
});

describe("results.json", () => {
  it("holds every bundle's size to the byte, as the current build bundles it", async () => {
    const committed = await readResults();
    expect(sizes, `the bundle sizes changed since the last run: ${REGENERATE}`).toEqual(committed.sizes);
  });

  it("holds the command line's bin sizes to the byte", async () => {
    const committed = await readResults();
    if (!isMeasured(committed.cli)) {
      throw new Error(`results.json has no command-line section: ${REGENERATE}`);
    }
    expect(await measureCliSizes(), `the bin's sizes changed since the last run: ${REGENERATE}`).toEqual(
      committed.cli.sizes,
    );
  });
});

describe("an app's imports (createClient + createTokenManager)", () => {
  it("leave out the deprecated host's calls, the Node-only file store and the store kit", async () => {
    const app = COMBINED_ENTRIES.find((e) => e.name.startsWith("an app's imports"));
    if (!app) {
      throw new Error("the app's imports are not measured");
    }
    const { code, inputs } = await bundle(app);
    const text = new TextDecoder().decode(code);
    // Messages only these parts hold: minified names would not tell.
    for (const absent of [
      "The direct login",
      "API token",
      "legacyLogin() uses the deprecated host",
      "bearer_required",
      "lock file",
    ]) {
      expect(text, absent).not.toContain(absent);
    }
    expect(inputs.filter((file) => /auth\/dist\/(node|store-kit|lease)/.test(file))).toEqual([]);
    expect(inputs.filter((file) => file.includes("openapi-fetch/"))).toHaveLength(1);
  });

  it("leave out the development-only option checks in a production build, and keep the ones that guard credentials", async () => {
    const app = COMBINED_ENTRIES.find((e) => e.name.startsWith("an app's imports")) as SizeEntry;
    expect(app.conditions).toEqual(["production"]);
    const text = async (entry: SizeEntry) => new TextDecoder().decode((await bundle(entry)).code);
    const production = await text(app);
    const development = await text({ ...app, conditions: [] });
    for (const check of [
      "did you mean",
      "must be an integer",
      "must be a whole number",
      "must be a function",
    ]) {
      expect(development, check).toContain(check);
      expect(production, check).not.toContain(check);
    }
    for (const guard of ["must not contain a username or password", "without a path, query or fragment"]) {
      expect(production, guard).toContain(guard);
    }
  });
});

// The floor and the opt-ins, measured once for their own test and for results.json.
const appRows = await measureAppRows();

describe("the floor and the opt-in features beside the app's imports", () => {
  it("measure a floor below the app's imports and a cost above zero for each opt-in", () => {
    const app = sizes.find((s) => s.name === APP_ENTRY_NAME);
    const { floor, optIns } = appRows;
    if (!app || !isSize(app) || !isSize(floor)) {
      throw new Error("the app's imports or the floor did not bundle");
    }
    expect(floor.gzip).toBeLessThan(app.gzip);
    expect(optIns.map((c) => c.name)).toEqual(OPT_INS.map((o) => o.name));
    for (const cost of optIns) {
      expect("gzip" in cost && cost.gzip > 0, `${cost.name}: ${JSON.stringify(cost)}`).toBe(true);
    }
  });

  it("are held in results.json to the byte, as the current build bundles them", async () => {
    const committed = await readResults();
    expect(appRows, `the floor or an opt-in's cost changed since the last run: ${REGENERATE}`).toEqual(
      committed.app,
    );
  });
});

describe("the coverage check", () => {
  const budget = (name: string) => ({ name, minified: 1, gzip: 1 });

  it("fails a public package that is neither measured nor excluded", () => {
    expect(
      coverageProblems(["@engage-voice/client", "@engage-voice/new"], [budget("@engage-voice/client")], {}),
    ).toEqual(["@engage-voice/new is public but has no budget and no exclusion in size-budget.json"]);
  });

  it("fails stale and double entries", () => {
    expect(
      coverageProblems(
        ["@engage-voice/client"],
        [budget("@engage-voice/client"), budget("@engage-voice/gone")],
        {
          "@engage-voice/client": "node-only: it opens sockets",
          "@engage-voice/old": "node-only: it opens sockets",
        },
      ),
    ).toEqual([
      "@engage-voice/client has a budget and is excluded: keep one",
      "@engage-voice/old is excluded but is not a public workspace package",
      "@engage-voice/gone has a budget but is not a public workspace package",
    ]);
  });

  it.each([
    [{ excluded: [] }, "excluded must be an object"],
    [{ excluded: { "@engage-voice/cli": "" } }, 'excluded["@engage-voice/cli"] must say why'],
  ])("refuses the exclusions %j with a typed error", (json, message) => {
    expect(() => parseExclusions(json)).toThrow(BudgetFileError);
    expect(() => parseExclusions(json)).toThrow(message);
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
