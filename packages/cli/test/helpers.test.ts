// The helper that runs the bin survives a child that never reads its stdin: the write to a pipe
// whose reader has exited fails with EPIPE, which must not become an uncaught error of the run.
import { describe, expect, it } from "vitest";
import { cliIn, tempHome } from "./helpers.js";

describe("cliIn", () => {
  it("writes stdin to a child that exits at once without reading it: its result, no uncaught EPIPE", async () => {
    const cli = cliIn(await tempHome());
    // Far more than a pipe buffers: the write is still under way when the child exits.
    const input = "x".repeat(4 * 1024 * 1024);
    const result = await cli(["--version"], { input });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
