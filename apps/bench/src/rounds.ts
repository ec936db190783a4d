// Every comparison runs in rounds, each a tinybench run of all its rows (through vitest's bench
// fixture), the order of the rows rotated each round: no row always runs first or right after the
// same neighbour, and each round's ratios compare rows measured at the same moment of a shared
// machine. The spread a figure is given with is over these rounds.
import type { TestContext } from "vitest";

export type Tasks = [name: string, fn: () => unknown][];

export async function inRounds(
  { bench, task }: TestContext,
  reference: string,
  tasks: Tasks,
  rounds: number,
  options: { time?: number; warmupTime?: number; iterations?: number; warmupIterations?: number },
): Promise<void> {
  // The writer (src/write-benchmarks.ts) reads the reference row from the test's meta.
  (task.meta as { reference?: string }).reference = reference;
  for (let round = 0; round < rounds; round++) {
    const order = tasks.map((_, i) => tasks[(i + round) % tasks.length] as Tasks[number]);
    await bench.compare(...order.map(([name, fn]) => bench(name, fn)), options);
  }
}
