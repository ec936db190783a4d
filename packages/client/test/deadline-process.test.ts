// What the shared deadline timer does to a real process (a test runner's own event loop would hide
// it): a call in flight keeps a one-shot script alive until its answer or its deadline, and a script
// whose calls are done ends at once, its deadlines far off. On the package's build (the test task
// builds first), on the workspace's Node and on Debian's Node 20 where there is one.
import { existsSync } from "node:fs";
import { neverAnswer, startLoopbackHost } from "@engage-voice/test-kit";
import { run } from "@engage-voice/test-kit/processes";
import { describe, expect, it } from "vitest";

const script = new URL("./fixtures/one-call.mjs", import.meta.url).pathname;
const nodes = [
  ["workspace Node", process.execPath],
  ["Node 20", "/usr/bin/node"],
].filter(([, binary]) => existsSync(binary as string)) as [string, string][];

/** Far below the ten minutes of the answered calls' deadlines, far above any start-up. */
const PATIENCE_MS = 30_000;

describe.each(nodes)("a one-shot script on %s", (_, node) => {
  it("ends at once when its calls are done, with their deadlines ten minutes off", async () => {
    const host = await startLoopbackHost((response) => {
      response.writeHead(200, { "Content-Type": "application/json" }).end("[]");
    });
    try {
      const result = await run(node, [script, "answered", host.base], { timeoutMs: PATIENCE_MS });
      expect(result).toMatchObject({ code: 0, stdout: "done\n", timedOut: false });
    } finally {
      await host.stop();
    }
  });

  it("ends with the deadline's error when the host never answers", async () => {
    const host = await startLoopbackHost(neverAnswer);
    try {
      const result = await run(node, [script, "silent", host.base], { timeoutMs: PATIENCE_MS });
      expect(result).toMatchObject({
        code: 1,
        stdout: "RequestTimeoutError request_timeout\n",
        timedOut: false,
      });
    } finally {
      await host.stop();
    }
  });

  it("stays alive until the deadline when nothing but the call's deadline holds the process", async () => {
    // The fetch holds no socket and no timer: without the deadline's, the process would end with
    // the call unsettled (exit code 13, "unsettled top-level await").
    const result = await run(node, [script, "nothing"], { timeoutMs: PATIENCE_MS });
    expect(result).toMatchObject({
      code: 1,
      stdout: "RequestTimeoutError request_timeout\n",
      timedOut: false,
    });
  });
});
