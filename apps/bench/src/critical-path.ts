// The critical path of a turbo run, from its run summary (`--summarize`): the chain of tasks, each
// started after the one before it ended, that ends last. Shortening anything off it does not shorten
// the run; this is where CI time goes.
import { readFile } from "node:fs/promises";

/** The part of a task in turbo's run summary that the path needs. */
export interface SummaryTask {
  taskId: string;
  dependencies?: string[];
  /** Absent for a task that did not run (a cache hit replays without one, a task with no script). */
  execution?: { startTime: number; endTime: number };
}

export interface PathStep {
  taskId: string;
  /** How long the task itself ran. */
  seconds: number;
  /** Between the end of the step before (or the run's first start) and this task's start. */
  waitSeconds: number;
}

type Ran = SummaryTask & { execution: { startTime: number; endTime: number } };

/** The chain that ends last, first task first; each step's predecessor is its dependency that ended last. */
export function criticalPath(tasks: readonly SummaryTask[]): PathStep[] {
  const ran = new Map<string, Ran>();
  for (const task of tasks) {
    if (
      task.execution &&
      Number.isFinite(task.execution.startTime) &&
      Number.isFinite(task.execution.endTime)
    ) {
      ran.set(task.taskId, task as Ran);
    }
  }
  if (ran.size === 0) {
    return [];
  }
  const runStart = Math.min(...[...ran.values()].map((t) => t.execution.startTime));
  const latest = (candidates: Ran[]) =>
    candidates.reduce((a, b) => (b.execution.endTime > a.execution.endTime ? b : a));
  const path: PathStep[] = [];
  let current: Ran | undefined = latest([...ran.values()]);
  while (current) {
    const before: Ran[] = (current.dependencies ?? []).flatMap((id) => ran.get(id) ?? []);
    const previous: Ran | undefined = before.length > 0 ? latest(before) : undefined;
    path.unshift({
      taskId: current.taskId,
      seconds: (current.execution.endTime - current.execution.startTime) / 1000,
      waitSeconds:
        Math.max(0, current.execution.startTime - (previous?.execution.endTime ?? runStart)) / 1000,
    });
    current = previous;
  }
  return path;
}

/** The critical path of the summary file turbo wrote. */
export async function criticalPathOf(summaryFile: string): Promise<PathStep[]> {
  const summary = JSON.parse(await readFile(summaryFile, "utf8")) as { tasks?: SummaryTask[] };
  return criticalPath(summary.tasks ?? []);
}

/** One line: each task with its time, joined by arrows, and the total. */
export function formatCriticalPath(path: readonly PathStep[]): string {
  if (path.length === 0) {
    return "no task ran";
  }
  const steps = path.map(
    (s) =>
      `\`${s.taskId}\` ${s.seconds.toFixed(1)} s${s.waitSeconds >= 0.5 ? ` (after ${s.waitSeconds.toFixed(1)} s waiting)` : ""}`,
  );
  const total = path.reduce((sum, s) => sum + s.seconds + s.waitSeconds, 0);
  return `${steps.join(" → ")}: ${total.toFixed(1)} s in all`;
}
