// A cell is one line of the matrix: a runtime, a packaging check or a type-check consumer.

export interface Cell {
  /** e.g. "node22 require"; the filter on the command line matches against it. */
  name: string;
  /** Throws when the cell fails; may return a short note for its line (a version, a path). */
  run(): Promise<string | undefined>;
}

export interface CellOutcome {
  name: string;
  passed: boolean;
  ms: number;
  note?: string | undefined;
  error?: string | undefined;
}

export async function runCell(cell: Cell): Promise<CellOutcome> {
  const started = performance.now();
  try {
    const note = await cell.run();
    return { name: cell.name, passed: true, ms: performance.now() - started, note };
  } catch (error) {
    // The message says what went wrong in the consumer; the matrix's own stack would only add noise.
    const text = error instanceof Error ? error.message : String(error);
    return { name: cell.name, passed: false, ms: performance.now() - started, error: text };
  }
}

export function formatOutcome(outcome: CellOutcome): string {
  const seconds = `${(outcome.ms / 1000).toFixed(1)}s`;
  const head = `${outcome.name}: ${outcome.passed ? "PASS" : "FAIL"} (${seconds})`;
  if (outcome.passed) {
    return outcome.note ? `${head} ${outcome.note}` : head;
  }
  const body = (outcome.error ?? "")
    .trimEnd()
    .split("\n")
    .map((line) => `    ${line}`);
  return [head, ...body].join("\n");
}
