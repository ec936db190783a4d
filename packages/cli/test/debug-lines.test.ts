// ENGAGE_VOICE_LOG=debug (as --debug): one line per request, in the CLI's format with the host, and
// every line of stderr with the same prefix; the lines of one command counted.
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cliIn, storedTokens, tempHome } from "./helpers.js";
import { expectNoSecrets } from "./scan.js";

const ACCOUNTS = "/voice/api/v1/admin/accounts";
const env = { ENGAGE_VOICE_LOG: "debug" };

let sandbox: RunningSandbox;
let cli: ReturnType<typeof cliIn>;
const refreshTokens: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ faults: { enabled: true } });
  const home = await tempHome();
  cli = cliIn(home);
  const ada = sandbox.seed.parentTokens.find((p) => p.token.endsWith("-ada"))?.token as string;
  const login = await cli(["login", "--rc-token-stdin", "--base-url", sandbox.mainUrl], { input: ada });
  expect(login.code, login.stderr).toBe(0);
  refreshTokens.push((await storedTokens(home, "default", sandbox.mainUrl)).refreshToken as string);
});

afterAll(async () => {
  await sandbox?.stop();
  expectNoSecrets(sandbox, refreshTokens);
});

const request = (status: number) =>
  new RegExp(`^\\[debug\\] GET ${sandbox.mainUrl}${ACCOUNTS} → ${status} in \\d+ ms$`);

it("one request is one line", async () => {
  const { code, stderr } = await cli(["accounts"], { env });
  expect(code).toBe(0);
  expect(stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(request(200))]);
});

it("a request tried again: a line for each try, and the wait said once", async () => {
  sandbox.faults.next({ kind: "status", status: 503, path: ACCOUNTS });
  const { code, stderr } = await cli(["accounts"], { env });
  expect(code).toBe(0);
  expect(stderr.trimEnd().split("\n")).toEqual([
    expect.stringMatching(request(503)),
    expect.stringMatching(
      /^\[debug\] warning: GET \/voice\/api\/v1\/admin\/accounts answered 503: trying again in \d+ ms/,
    ),
    expect.stringMatching(request(200)),
  ]);
});

it("a failure's stack: every line of it with the prefix, under ENGAGE_VOICE_LOG as under --debug", async () => {
  sandbox.faults.next({ kind: "status", status: 501, path: ACCOUNTS });
  const { code, stderr } = await cli(["accounts"], { env });
  expect(code).toBe(1);
  const [failed, message, ...trace] = stderr.trimEnd().split("\n");
  expect(failed).toMatch(request(501));
  expect(message).toMatch(/^engage-voice: .* answered 501/);
  expect(trace.length).toBeGreaterThan(1);
  expect(trace.filter((line) => !line.startsWith("[debug] "))).toEqual([]);
  expect(trace.some((line) => /^\[debug\]\s+at /.test(line))).toBe(true);
});
