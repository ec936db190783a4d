// A host that takes the connection and never answers: the call ends at its deadline (--timeout),
// exit 1, with a line that names the fix, instead of waiting until the operating system gives up.
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatedProxy, gatedProxy } from "./gated-proxy.js";
import { cliIn, tempHome } from "./helpers.js";

const ACCOUNTS = "/voice/api/v1/admin/accounts";

let sandbox: RunningSandbox;
let main: GatedProxy;

beforeAll(async () => {
  sandbox = await startSandbox();
  main = await gatedProxy(sandbox.mainUrl);
});

afterAll(async () => {
  await main?.close();
  await sandbox?.stop();
});

const parent = () => sandbox.seed.parentTokens[0]?.token as string;

describe("--timeout", () => {
  it("ends a call the host never answers, exit 1, naming the flag", async () => {
    const cli = cliIn(await tempHome());
    const hosts = ["--base-url", main.url, "--legacy-base-url", sandbox.legacyUrl];
    expect((await cli(["login", "--rc-token-stdin", ...hosts], { input: parent() })).code).toBe(0);
    main.answer(ACCOUNTS, () => {}); // the connection is taken, nothing is ever written
    const { code, stdout, stderr } = await cli(["accounts", "--timeout", "1"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(
      /^engage-voice: http:\/\/127\.0\.0\.1:\d+ did not answer within 1 s: .*--timeout SECONDS\n$/,
    );
  });

  it.each([["abc"], ["0"], ["-1"], ["3601"]])("refuses %s as a usage error (exit 2)", async (value) => {
    const { code, stderr } = await cliIn(await tempHome())(["accounts", `--timeout=${value}`]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--timeout \(or ENGAGE_VOICE_TIMEOUT\) must be a number of seconds/);
  });
});
