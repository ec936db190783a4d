import { describe, expect, it } from "vitest";
import { criticalPath, formatCriticalPath, type SummaryTask } from "../src/critical-path.ts";

const task = (taskId: string, start: number, end: number, dependencies: string[] = []): SummaryTask => ({
  taskId,
  dependencies,
  execution: { startTime: start * 1000, endTime: end * 1000 },
});

describe("criticalPath", () => {
  it("follows the dependency that ended last back from the task that ended last", () => {
    const path = criticalPath([
      task("spec#bundle", 0, 5),
      task("client#build", 5, 9, ["spec#bundle"]),
      task("auth#build", 9, 12, ["client#build"]),
      task("auth#typecheck", 12, 30, ["client#build"]),
      task("release#registry", 12, 40, ["auth#build", "client#build"]),
      task("dev#test", 41, 50, ["release#registry", "dev#build"]),
      // Long, but done before the run's end: not on the path.
      task("e2e#test", 12, 45, ["auth#build"]),
      // No execution: a task turbo lists but did not run.
      { taskId: "dev#build", dependencies: [] },
    ]);
    expect(path.map((s) => s.taskId)).toEqual([
      "spec#bundle",
      "client#build",
      "auth#build",
      "release#registry",
      "dev#test",
    ]);
    expect(path.map((s) => s.seconds)).toEqual([5, 4, 3, 28, 9]);
    expect(path.map((s) => s.waitSeconds)).toEqual([0, 0, 0, 0, 1]);
    expect(formatCriticalPath(path)).toBe(
      "`spec#bundle` 5.0 s → `client#build` 4.0 s → `auth#build` 3.0 s → `release#registry` 28.0 s → `dev#test` 9.0 s (after 1.0 s waiting): 50.0 s in all",
    );
  });

  it("is empty when no task ran", () => {
    expect(criticalPath([{ taskId: "a#test" }])).toEqual([]);
    expect(formatCriticalPath([])).toBe("no task ran");
  });
});
