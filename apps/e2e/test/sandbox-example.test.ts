// The TypeScript lines the sandbox prints on start, run as printed with the workspace's client and
// auth packages. Here rather than in the sandbox's tests, which cannot use auth (auth's tests use the
// sandbox).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describeSandbox, startSandbox, typeScriptExample } from "@engage-voice/sandbox";
import { stoppedAfterEach } from "@engage-voice/test-kit";
import { expect, it } from "vitest";

const run = promisify(execFile);
const openServer = stoppedAfterEach(startSandbox);

it("the sandbox's printed TypeScript lines run as printed, with the client and auth packages", async () => {
  const sandbox = await openServer();
  const text = describeSandbox(sandbox);
  const lines = text.slice(text.indexOf("(TypeScript or ES module):") + 26).split("\n");
  const source = lines
    .map((line) => line.replace(/^ {2}/, ""))
    .join("\n")
    .trim();
  const parentToken = sandbox.seed.parentTokens[0]?.token as string;
  expect(source).toBe(typeScriptExample(sandbox.mainUrl, parentToken).join("\n"));
  const { stdout } = await run(process.execPath, ["--input-type=module", "--eval", source], {
    cwd: new URL("..", import.meta.url),
    timeout: 60_000,
  });
  expect(stdout.trim()).toBe("[ 'Sandbox Sales', 'Sandbox Support', 'Sandbox Legacy Line' ]");
});
