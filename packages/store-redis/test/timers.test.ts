import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const child = new URL("./fixtures/idle-timers-child.mjs", import.meta.url).pathname;

it("no command deadline or lock heartbeat keeps a process alive", async () => {
  // The child's commands would time out after 60 s and its heartbeat beats every 10 s forever: only
  // timers that keep no process alive let it exit well inside the kill timeout.
  const { stdout } = await promisify(execFile)(process.execPath, [child], { timeout: 60_000 });
  expect(stdout.trim()).toBe("waiting");
});
