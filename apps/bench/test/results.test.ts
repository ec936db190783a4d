// BENCHMARKS.md cannot go stale: it is held byte for byte to what results.json renders to, and the
// timings of results.json, which no test can measure again, to their shape (a median with its spread,
// a verdict that follows from them and today's budgets). The sizes are held to the build in
// budget.test.ts, where they are measured.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { loadBudgets } from "../src/budget.ts";
import { comparisonLine, renderBenchmarks } from "../src/render.ts";
import {
  BENCHMARKS_FILE,
  type CallSection,
  type Comparison,
  isMeasured,
  REGENERATE,
  RERENDER,
  type Results,
  readResults,
  resultProblems,
} from "../src/results.ts";
import { TIME_BUDGETS, verdictOf } from "../src/verdict.ts";

const committed = await readResults();

describe("BENCHMARKS.md", () => {
  it("is exactly what results.json renders to", async () => {
    const rendered = renderBenchmarks(committed, await loadBudgets());
    const file = await readFile(BENCHMARKS_FILE, "utf8");
    expect(
      file,
      `BENCHMARKS.md differs from what apps/bench/results.json renders to: ${REGENERATE}; or, for a change to the rendering or size-budget.json alone, ${RERENDER}`,
    ).toBe(rendered);
  });
});

describe("results.json", () => {
  it("holds every section of a full run, each timing with its spread and a verdict that follows from it", () => {
    expect(resultProblems(committed), REGENERATE).toEqual([]);
  });

  it("holds the middleware's verdict against its budget", () => {
    if (!isMeasured(committed.overhead)) {
      throw new Error(REGENERATE);
    }
    const held = committed.overhead.comparisons.find((c) => c.label === "middleware overhead");
    expect(held && "budget" in held ? held.budget : "no budget", REGENERATE).toBe("middleware");
  });
});

/** A copy of the committed run, changed by `change`. */
function variant(change: (results: Results) => void): Results {
  const copy = structuredClone(committed);
  change(copy);
  return copy;
}

/** The problems of `results` beyond those of the committed run (none, when it is whole). */
const added = (results: Results) => {
  const before = resultProblems(committed);
  return resultProblems(results).filter((p) => !before.includes(p));
};

const firstHeld = (results: Results) => {
  const section = results.overhead as CallSection;
  return section.comparisons.find((c): c is Comparison => "budget" in c) as Comparison;
};

describe("the shape check", () => {
  it("fails a verdict that does not follow from the figure and the budget", () => {
    const results = variant((r) => {
      const held = firstHeld(r);
      held.added = { median: TIME_BUDGETS.middleware + 0.5, spread: 0.01, rounds: 15 };
      held.verdict = "PASS";
    });
    expect(added(results)).toEqual([
      expect.stringMatching(/^the stubbed calls: middleware overhead says PASS, but .* is FAIL$/),
    ]);
  });

  it("fails a timing without its spread", () => {
    const results = variant((r) => {
      delete (firstHeld(r).added as { spread?: number }).spread;
      if (isMeasured(r.cli)) {
        r.cli.start.tokenRatio.spread = Number.NaN;
      }
    });
    expect(added(results)).toEqual([
      "the stubbed calls: middleware overhead needs a median, a spread (>= 0) and the number of rounds",
      "the token start-up ratio needs a median, a spread (>= 0) and the number of rounds",
    ]);
  });

  it("fails a section that was not measured, and a run without its critical path", () => {
    const results = variant((r) => {
      r.http = { notMeasured: "not run (--only)" };
      r.app = { notMeasured: "not run (--only)" };
      if (isMeasured(r.pipeline)) {
        r.pipeline.criticalPath = [];
      }
    });
    expect(added(results)).toEqual([
      "the calls over HTTP was not measured: not run (--only)",
      "the app's floor and opt-ins were not measured: not run (--only)",
      "the pipeline needs the critical path of its tests",
    ]);
  });
});

describe("a verdict", () => {
  const budget = TIME_BUDGETS.middleware;

  it.each([
    [0.05, 0.02, "PASS"],
    [0.3, 0.05, "FAIL"],
    [0.08, 0.03, "PASS, inside the noise"],
    [0.12, 0.05, "FAIL, inside the noise"],
    [budget, 0, "PASS, inside the noise"],
  ] as const)("of %s ± %s against the middleware budget is %s", (median, spread, verdict) => {
    expect(verdictOf({ median, spread, rounds: 15 }, budget)).toBe(verdict);
  });

  it("is printed with the figure, its spread, the budget and the rounds", () => {
    const added = { median: 0.12, spread: 0.05, rounds: 15 };
    expect(
      comparisonLine({
        label: "middleware overhead",
        name: "a",
        reference: "b",
        added,
        addedMicros: 3.21,
        budget: "middleware",
        verdict: verdictOf(added, budget),
      }),
    ).toBe(
      "**middleware overhead vs b: +12.0% ± 5.0% (budget 10%): FAIL, inside the noise** (+3.2 µs per call; median and MAD over 15 rounds)",
    );
  });
});
