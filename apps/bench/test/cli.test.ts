import { describe, expect, it } from "vitest";
import { type StartTimes, TOKEN_START_BUDGET, tokenStartVerdict } from "../src/cli.ts";

const start = (tokenMs: number): StartTimes => ({
  runs: 25,
  nodeMs: 40,
  versionMs: 50,
  helpMs: 52,
  tokenMs,
  tokenRatio: { low: 2.1, median: 2.4, high: 2.9 },
});

describe("tokenStartVerdict", () => {
  it("passes at the budget, fails above it, and gives the spread of the per-round ratios", () => {
    expect(tokenStartVerdict(start(40 * TOKEN_START_BUDGET))).toBe(
      `\`engage-voice token\` with a valid stored session: ${TOKEN_START_BUDGET.toFixed(2)}× \`node -e 0\` (budget ${TOKEN_START_BUDGET}×): PASS (per-round ratio 2.40× [2.10-2.90] over 25 rounds)`,
    );
    expect(tokenStartVerdict(start(40 * TOKEN_START_BUDGET + 1))).toContain(": FAIL (");
  });
});
