// How every figure of the bench is given: the median of its runs (rounds, workers), with the lowest
// and the highest beside it. One home for the three writers of figures (BENCHMARKS.md, the
// many-tenants report, the sandbox's load run).

export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** `median [lowest–highest]`, each formatted by `format`. */
export const spread = (xs: readonly number[], format: (x: number) => string): string =>
  `${format(median(xs))} [${format(Math.min(...xs))}–${format(Math.max(...xs))}]`;
