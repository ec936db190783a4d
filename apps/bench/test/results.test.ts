// BENCHMARKS.md cannot go stale: it is held byte for byte to what results.json renders to, and the
// timings of results.json, which no test can measure again, to their shape (a median with its spread,
// a verdict that follows from them and today's budgets). The sizes are held to the build in
// budget.test.ts, where they are measured.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { loadBudgets } from "../src/budget.ts";
import { NAMES } from "../src/contenders.ts";
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

  it("holds a verdict for each authorised path (auth middleware, auth.fetch, auth.client()) against the call budget", () => {
    if (!isMeasured(committed.overhead)) {
      throw new Error(REGENERATE);
    }
    const held = committed.overhead.comparisons.filter((c): c is Comparison => "budget" in c);
    expect(
      held.map((c) => [c.name, c.budget]),
      REGENERATE,
    ).toEqual([NAMES.clientAuth, NAMES.clientAuthFetch, NAMES.authClient].map((name) => [name, "call"]));
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
      held.added = { median: TIME_BUDGETS.call.budget + 0.5, spread: 0.01, rounds: 15 };
      held.verdict = "PASS";
    });
    const [problem] = added(results);
    expect(added(results)).toHaveLength(1);
    expect(problem).toMatch(/^the stubbed calls: .* says PASS, but .* against 0.1 \(goal 0.05\) is FAIL$/);
    expect(problem).toContain(firstHeld(committed).label);
  });

  it("fails a timing without its spread", () => {
    const results = variant((r) => {
      delete (firstHeld(r).added as { spread?: number }).spread;
      if (isMeasured(r.cli)) {
        r.cli.start.tokenRatio.spread = Number.NaN;
      }
    });
    expect(added(results)).toEqual([
      `the stubbed calls: ${firstHeld(committed).label} needs a median, a spread (>= 0) and the number of rounds`,
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
  const { budget, goal } = TIME_BUDGETS.call;

  it.each([
    [0.3, 0.05, "FAIL"],
    [0.08, 0.03, "PASS, inside the noise"],
    [0.12, 0.05, "FAIL, inside the noise"],
    [budget, 0, "PASS, inside the noise"],
    [0.1001, 0, "FAIL"],
    [0.02, 0.01, "PASS, goal met"],
    [-0.02, 0.01, "PASS, goal met"],
    [0.06, 0.02, "PASS, goal inside the noise"],
    [0.08, 0.01, "PASS, goal not met"],
  ] as const)("of %s ± %s against the call budget and its goal is %s", (median, spread, verdict) => {
    expect(verdictOf({ median, spread, rounds: 15 }, TIME_BUDGETS.call)).toBe(verdict);
  });

  it("has no goal to report against a budget without one", () => {
    expect(verdictOf({ median: 0.02, spread: 0.01, rounds: 15 }, { budget })).toBe("PASS");
    expect(verdictOf({ median: 2, spread: 0.1, rounds: 15 }, TIME_BUDGETS.tokenStart)).toBe("PASS");
  });

  it("reads its limits from the one budget constant", () => {
    expect(TIME_BUDGETS.call).toEqual({ budget: 0.1, goal: 0.05 });
    expect(goal).toBeLessThan(budget);
  });

  it("is printed with the figure, its spread, the budget, the goal and the rounds, and says when the run cannot tell", () => {
    const added = { median: 0.12, spread: 0.05, rounds: 201, of: "alternating pairs of 200-call batches" };
    expect(
      comparisonLine({
        label: "auth.client()",
        name: "a",
        reference: "b",
        added,
        addedMicros: 3.21,
        budget: "call",
        verdict: verdictOf(added, TIME_BUDGETS.call),
      }),
    ).toBe(
      "**auth.client() vs b: +12.0% ± 5.0% (budget 10%, goal 5%): FAIL, inside the noise** (+3.2 µs per call; median and MAD over 201 alternating pairs of 200-call batches; the budget lies within median ± MAD: this run cannot tell, more pairs on a quieter machine can)",
    );
  });

  it("is printed without a verdict for a comparison held to no budget", () => {
    expect(
      comparisonLine({
        label: "with a one-line header middleware",
        name: "a",
        reference: "b",
        added: { median: 0.031, spread: 0.01, rounds: 25 },
        addedMicros: 0.7,
      }),
    ).toBe(
      "with a one-line header middleware vs b: +3.1% ± 1.0% (+0.7 µs per call; median and MAD over 25 rounds)",
    );
  });
});
