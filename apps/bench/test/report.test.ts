import { describe, expect, it } from "vitest";
import { methodSection } from "../src/method.ts";
import { aimVerdict, appAimVerdict, appTable, overheadTable, pipelineTable, table } from "../src/report.ts";
import { TIME_BUDGETS } from "../src/verdict.ts";

describe("the method", () => {
  it("states the budget and the goal of the one budget constant, the pairs, and every authorised path", () => {
    const text = methodSection({
      overhead: { rounds: 25, time: 60, warmupTime: 15, pairs: { pairs: 201, batch: 200 } },
      http: { rounds: 7, time: 150, warmupTime: 30 },
      concurrency: [1],
    });
    const { budget, goal } = TIME_BUDGETS.call;
    expect(text).toContain(`a budget of ${budget * 100}% and a goal of ${goal * 100}%`);
    expect(text).toContain("25 rounds of 60 ms");
    expect(text).toContain("201 pairs of batches of 200 calls");
    for (const path of ["auth.fetch", "auth.client()", "auth middleware"]) {
      expect(text).toContain(path);
    }
  });

  it("says when the paired verdicts were not measured", () => {
    const text = methodSection({ overhead: undefined, http: undefined, concurrency: [1] });
    expect(text).toContain("has a\nverdict, not measured in this run.");
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

describe("the app's imports", () => {
  it("are held to issue 20's aim, with the floor beside them", () => {
    expect(appAimVerdict(8_500, 5_380, 8_500)).toBe(
      "an app's imports under 8.5 kB min+gzip (issue 20's aim): 8.50 kB, MET; the floor: 5.38 kB",
    );
    expect(appAimVerdict(11_720, 5_380, 8_500)).toBe(
      "an app's imports under 8.5 kB min+gzip (issue 20's aim): 11.72 kB, MISSED by 3.22 kB; the floor: 5.38 kB",
    );
    expect(appAimVerdict(undefined, 5_380, 8_500)).toBe(
      "an app's imports under 8.5 kB min+gzip: not measured",
    );
  });

  it("show each opt-in as what it adds, and an opt-in that does not bundle with the reason", () => {
    const size = (name: string, gzip: number) => ({
      name,
      platform: "browser" as const,
      minified: gzip * 3,
      gzip,
    });
    const text = appTable(size("app", 11_720), size("floor", 5_380), [
      { name: "API tokens", note: "when imported", platform: "browser", minified: 2_230, gzip: 780 },
      { name: "file store", platform: "node", errors: ['Could not resolve "node:fs"'] },
    ]);
    expect(text).toContain(
      "| an app's imports: createClient + createTokenManager | browser | 35.16 kB | 11.72 kB |",
    );
    expect(text).toContain(
      "| + API tokens | browser | +2.23 kB | +0.78 kB | added to the app's imports when imported |",
    );
    expect(text).toContain('| + file store | node | does not bundle: Could not resolve "node:fs" | — |');
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
