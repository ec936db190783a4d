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

/**
 * Runs `task` once no earlier task of `key` is running: cells that write their config.json into one
 * consumer project (the key is its folder) take turns, while cells of other projects run beside them.
 */
const turns = new Map<string, Promise<unknown>>();
export function inTurn<T>(key: string, task: () => Promise<T>): Promise<T> {
  const mine = (turns.get(key) ?? Promise.resolve()).then(task, task);
  turns.set(
    key,
    mine.catch(() => undefined),
  );
  return mine;
}

/**
 * Runs every cell, at most `concurrency` at a time, and reports each outcome in the cells' order
 * (a line waits for the lines before it, so the output reads as a serial run's).
 */
export async function runCells(
  cells: readonly Cell[],
  concurrency: number,
  report: (outcome: CellOutcome) => void,
): Promise<void> {
  const waiting: (() => void)[] = [];
  let running = 0;
  const slot = async () => {
    if (running < concurrency) {
      running++;
      return;
    }
    // The slot is handed over by the cell that ends: `running` stays as it is.
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) {
      next();
    } else {
      running--;
    }
  };
  const outcomes = cells.map(async (cell) => {
    await slot();
    try {
      return await runCell(cell);
    } finally {
      release();
    }
  });
  for (const outcome of outcomes) {
    report(await outcome);
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
