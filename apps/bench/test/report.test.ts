import { describe, expect, it } from "vitest";
import { aimVerdict, overheadTable, pipelineTable, table } from "../src/report.ts";

describe("tables", () => {
  it("escape pipes inside cells", () => {
    expect(table(["a"], [["x | y"]])).toBe("| a |\n|---|\n| x \\| y |");
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
