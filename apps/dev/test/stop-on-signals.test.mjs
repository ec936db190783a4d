// `stopOnSignals()` of the test kit, which `pnpm start` and `pnpm mock` stop their servers with: a
// signal that comes while the servers start waits for `ready()`, then stops every one started; one
// that comes after stops them at once. The script signals itself, so nothing races a timer.
import assert from "node:assert/strict";
import { test } from "node:test";
import { run } from "@engage-voice/test-kit/processes";

/** Runs a module that gets `stops` (from stopOnSignals) and `stopped` (what the stops record). */
function script(body) {
  const source = `import { stopOnSignals } from "@engage-voice/test-kit/processes";
const stops = stopOnSignals();
const stopped = [];
process.on("exit", (code) => console.log(JSON.stringify({ code, stopped })));
${body}`;
  return run(process.execPath, ["--input-type=module", "-e", source], {
    cwd: new URL("..", import.meta.url).pathname,
    timeoutMs: 20_000,
  });
}

test("a signal before ready() stops every server added, once ready() says they all started", async () => {
  const result = await script(`
stops.add(async () => stopped.push("sandbox"));
process.kill(process.pid, "SIGTERM");
await new Promise((resolve) => setTimeout(resolve, 50));
stopped.push("still starting");
stops.add(async () => stopped.push("prism"));
stops.ready();
`);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { code: 0, stopped: ["still starting", "sandbox", "prism"] });
});

test("a signal after ready() stops every server added and exits 0", async () => {
  const result = await script(`
stops.add(async () => stopped.push("docs"));
stops.ready();
process.kill(process.pid, "SIGINT");
setInterval(() => {}, 1000);
`);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { code: 0, stopped: ["docs"] });
});
