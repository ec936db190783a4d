// The timing budgets the bench holds, and the one rule that turns a measured figure and its spread
// into a verdict. Timings move between runs (see "±" in BENCHMARKS.md): a median that sits within
// its spread of the budget is reported as inside the noise, not as a clean pass or fail.
import { median } from "./measure.ts";

export const TIME_BUDGETS = {
  /** Added time per call of the auth middleware (and of auth.fetch) over bare openapi-fetch. */
  middleware: 0.1,
  /** `engage-voice token` with a valid stored session, as a multiple of `node -e 0`. */
  tokenStart: 2.5,
  /** Seconds for a fresh clone's set-up and `pnpm test`, on an idle machine. */
  ciSeconds: 150,
} as const;

export type TimeBudget = keyof typeof TIME_BUDGETS;

/** A figure measured in rounds: the median over the rounds and the median absolute deviation. */
export interface Spread {
  median: number;
  /** Median absolute deviation over the rounds, in the unit of `median`. */
  spread: number;
  rounds: number;
}

export const VERDICTS = ["PASS", "FAIL", "PASS, inside the noise", "FAIL, inside the noise"] as const;
export type Verdict = (typeof VERDICTS)[number];

/** PASS or FAIL by the median; "inside the noise" when the budget lies within the spread of it. */
export function verdictOf({ median: value, spread }: Spread, budget: number): Verdict {
  const outcome = value <= budget ? "PASS" : "FAIL";
  return Math.abs(value - budget) <= spread ? `${outcome}, inside the noise` : outcome;
}

/** The median and median absolute deviation of per-round values. */
export function spreadOf(values: readonly number[]): Spread {
  const middle = median(values);
  return { median: middle, spread: median(values.map((v) => Math.abs(v - middle))), rounds: values.length };
}
