import { describe, expect, it } from "vitest";
import { methodSection } from "../src/method.ts";
import { aimVerdict, CALL_BUDGET, callVerdict, overheadTable, pipelineTable, table } from "../src/report.ts";

describe("the verdict of an authorised path", () => {
  const added = (median: number, mad: number) => ({ median, mad, rounds: 25 });
  const head = (median: string, mad: string) =>
    `auth.fetch vs bare openapi-fetch: ${median}% ± ${mad}% (median ± MAD over 25 rounds; budget ${CALL_BUDGET.budget * 100}%, goal ${CALL_BUDGET.goal * 100}%)`;

  it.each([
    [0.02, 0.01, head("+2.0", "1.0"), "PASS, goal met"],
    [0.06, 0.02, head("+6.0", "2.0"), "PASS, goal inside the noise"],
    [0.08, 0.01, head("+8.0", "1.0"), "PASS, goal not met"],
    [0.1, 0, head("+10.0", "0.0"), "PASS, goal not met"],
    [-0.02, 0.01, head("-2.0", "1.0"), "PASS, goal met"],
    [0.1001, 0, head("+10.0", "0.0"), "FAIL (the whole band, +10.0% to +10.0%, is over the budget)"],
    [0.54, 0.1, head("+54.0", "10.0"), "FAIL (the whole band, +44.0% to +64.0%, is over the budget)"],
  ])("reads %d ± %d as a verdict", (median, mad, figures, verdict) => {
    expect(callVerdict("auth.fetch", added(median, mad))).toBe(`${figures}: ${verdict}`);
  });

  it("says inside the noise, not PASS or FAIL, when the budget lies within the band", () => {
    for (const [median, mad] of [
      [0.12, 0.03],
      [0.08, 0.03],
    ] as const) {
      const text = callVerdict("auth.fetch", added(median, mad));
      expect(text).toContain("inside the noise (the budget lies within");
      expect(text).not.toMatch(/PASS|FAIL/);
    }
  });

  it("reads its limits from the one budget constant", () => {
    expect(CALL_BUDGET).toEqual({ budget: 0.1, goal: 0.05 });
    expect(callVerdict("x", added(0.07, 0), { budget: 0.05, goal: 0.02 })).toContain("FAIL");
  });
});

describe("the method", () => {
  it("states the budget and the goal of the constant, and every authorised path", () => {
    const text = methodSection({
      overhead: { rounds: 25, time: 60, warmupTime: 15 },
      http: { rounds: 7, time: 150, warmupTime: 30 },
      concurrency: [1],
      budget: CALL_BUDGET,
      pairs: { pairs: 201, batch: 200 },
    });
    expect(text).toContain(
      `a budget of ${CALL_BUDGET.budget * 100}% and a goal of ${CALL_BUDGET.goal * 100}%`,
    );
    expect(text).toContain("25 rounds of 60 ms");
    expect(text).toContain("201 pairs of batches of 200 calls");
    for (const path of ["auth.fetch", "auth.client()", "auth middleware"]) {
      expect(text).toContain(path);
    }
  });
});

describe("tables", () => {
  it("escape pipes inside cells", () => {
    expect(table(["a"], [["x | y"]])).toBe("| a |\n|---|\n| x \\| y |");
  });

  it("name CPU time in the head when the section was timed in it", () => {
    expect(overheadTable([], "raw fetch", "cpu")).toContain(
      "| client | calls per CPU second | CPU µs per call | CPU time vs raw fetch |",
    );
    expect(overheadTable([], "raw fetch")).toContain("| client | ops/s | µs per call | time vs raw fetch |");
  });

  it("say why a row was not measured", () => {
    const text = overheadTable([{ name: "sdk", skipped: "needs a login" }], "raw fetch");
    expect(text).toContain("| sdk | — | — | — | — | not measured: needs a login |");
  });
});

describe("the size aim", () => {
  it("is met only under 6 kB", () => {
    expect(aimVerdict(5_500)).toBe("client + auth under 6 kB min+gzip (the aim): 5.50 kB, MET");
    expect(aimVerdict(8_250)).toBe("client + auth under 6 kB min+gzip (the aim): 8.25 kB, MISSED by 2.25 kB");
    expect(aimVerdict(undefined)).toBe("client + auth under 6 kB min+gzip: not measured");
  });
});

describe("the pipeline table", () => {
  it("names what turbo reported as failed next to the exit code", () => {
    const text = pipelineTable([
      {
        name: "tests",
        command: "turbo run test",
        seconds: 12.34,
        exitCode: 1,
        failed: "@engage-voice/docs#test",
      },
      { name: "build", command: "turbo run build", seconds: 1, exitCode: 0 },
    ]);
    expect(text).toContain("| tests | 12.3 s | 1 (failed: @engage-voice/docs#test) | `turbo run test` |");
    expect(text).toContain("| build | 1.0 s | 0 | `turbo run build` |");
  });
});
