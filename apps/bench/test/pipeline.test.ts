import { describe, expect, it } from "vitest";
import { runStep, testTasks } from "../src/pipeline.ts";

describe("runStep", () => {
  it("times a command and keeps the failed task turbo names", async () => {
    const script =
      "console.log('Tasks: 1 failed'); console.log(' Failed:    @engage-voice/x#test'); process.exit(3)";
    const result = await runStep(
      { name: "failing", command: [process.execPath, "-e", script] },
      process.cwd(),
    );
    expect(result.exitCode).toBe(3);
    expect(result.failed).toBe("@engage-voice/x#test");
    expect(result.tail).toContain("Tasks: 1 failed");
    expect(result.seconds).toBeGreaterThan(0);
  });

  it("keeps no output of a step that passed", async () => {
    const result = await runStep(
      { name: "passing", command: [process.execPath, "-e", "console.log('ok')"] },
      process.cwd(),
    );
    expect(result).toMatchObject({ name: "passing", exitCode: 0 });
    expect(result.tail).toBeUndefined();
  });

  it("keeps the run summary turbo names, for the critical path", async () => {
    const script =
      "console.log('  Tasks:    1 successful'); console.log('Summary:    /repo/.turbo/runs/abc.json')";
    const result = await runStep(
      { name: "summarized", command: [process.execPath, "-e", script] },
      process.cwd(),
    );
    expect(result.summary).toBe("/repo/.turbo/runs/abc.json");
  });
});

describe("testTasks", () => {
  it("reads the turbo tasks of the root's test script, so the pipeline step runs what pnpm test runs", () => {
    expect(testTasks("turbo run lint-spec typecheck test test:published && biome check .")).toEqual([
      "lint-spec",
      "typecheck",
      "test",
      "test:published",
    ]);
    expect(testTasks("turbo run test")).toEqual(["test"]);
    expect(() => testTasks("vitest run")).toThrow("does not start with turbo run TASK...");
  });
});
