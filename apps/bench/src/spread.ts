// How every figure of the bench is given: the median of its runs (rounds, workers, waits), with the
// lowest and the highest beside it. One home for the writers of figures (BENCHMARKS.md, the
// many-tenants step's JSON, the sandbox's load run).

/** The median, lowest and highest of `count` figures (all 0 when there are none). */
export interface Spread {
  median: number;
  lowest: number;
  highest: number;
  count: number;
}

export function spreadOf(xs: readonly number[]): Spread {
  // A typed array sorts numbers as numbers, and takes a million waits without spreading them as arguments.
  const sorted = Float64Array.from(xs).sort();
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return {
    median: median ?? 0,
    lowest: sorted[0] ?? 0,
    highest: sorted[sorted.length - 1] ?? 0,
    count: sorted.length,
  };
}

export const median = (xs: readonly number[]): number => spreadOf(xs).median;

/** `median [lowest–highest]`, each formatted by `format`. */
export const showSpread = (s: Spread, format: (x: number) => string): string =>
  `${format(s.median)} [${format(s.lowest)}–${format(s.highest)}]`;

export const spread = (xs: readonly number[], format: (x: number) => string): string =>
  showSpread(spreadOf(xs), format);
