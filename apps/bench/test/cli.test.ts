import { describe, expect, it } from "vitest";
import { type StartTimes, TOKEN_START_BUDGET, tokenStartVerdict } from "../src/cli.ts";

const start = (median: number): StartTimes => ({
  runs: 25,
  nodeMs: 40,
  versionMs: 50,
  helpMs: 52,
  tokenMs: 40 * median,
  tokenRatio: { low: 2.1, median, spread: 0.05, rounds: 25, high: 2.9 },
});

describe("tokenStartVerdict", () => {
  it("judges the median per-round ratio with its spread against the budget", () => {
    expect(tokenStartVerdict(start(2.4))).toBe(
      `\`engage-voice token\` with a valid stored session: 2.40× ± 0.05 \`node -e 0\` (budget ${TOKEN_START_BUDGET}×): PASS (median and MAD of the per-round ratios over 25 rounds, range 2.10-2.90)`,
    );
    expect(tokenStartVerdict(start(TOKEN_START_BUDGET + 0.2))).toContain(": FAIL (");
  });

  it("says when the budget lies inside the spread", () => {
    expect(tokenStartVerdict(start(TOKEN_START_BUDGET - 0.04))).toContain(": PASS, inside the noise (");
    expect(tokenStartVerdict(start(TOKEN_START_BUDGET + 0.04))).toContain(": FAIL, inside the noise (");
  });
});
