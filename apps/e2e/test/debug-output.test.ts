// ENGAGE_VOICE_LOG=debug prints a line per request and each retry and renewal, and never a secret:
// a whole scenario runs as a child process, and its stderr is searched for every secret it used.
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { run } from "@engage-voice/test-kit/processes";
import { afterAll, beforeAll, expect, it } from "vitest";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ faults: { enabled: true } });
});
afterAll(() => sandbox?.stop());

it("a whole scenario logs each request and retry, and none of its secrets", async () => {
  sandbox.faults.next({ kind: "status", status: 503, path: "/voice/api/v1/admin/users" });
  const parent = sandbox.seed.parentTokens[0]?.token as string;
  const legacy = sandbox.seed.legacyLogins[0] as { username: string; password: string; platformId: string };
  const script = new URL("./fixtures/debug-scenario.mjs", import.meta.url).pathname;
  const { code, stdout, stderr } = await run(
    process.execPath,
    [script, sandbox.mainUrl, sandbox.legacyUrl, parent, legacy.username, legacy.password, legacy.platformId],
    { env: { ...process.env, ENGAGE_VOICE_LOG: "debug" } },
  );
  expect(code).toBe(0);
  const secrets = JSON.parse(stdout) as string[];
  // The parent token, the password, every access and refresh token, the created API token.
  expect(secrets.length).toBeGreaterThanOrEqual(7);
  for (const secret of secrets) {
    expect(stderr).not.toContain(secret);
  }
  const lines = stderr.trimEnd().split("\n");
  for (const expected of [
    /^POST \/api\/auth\/login\/rc\/accesstoken 200 in \d+ ms$/,
    /^GET \/voice\/api\/v1\/admin\/accounts 200 in \d+ ms$/,
    /^GET \/voice\/api\/v1\/admin\/users 503 in \d+ ms$/,
    /^GET \/voice\/api\/v1\/admin\/users answered 503: trying again in \d+ ms \(retry 1 of 2\)$/,
    /^GET \/voice\/api\/v1\/admin\/users 200 in \d+ ms$/,
    /^POST \/api\/auth\/token\/refresh 200 in \d+ ms$/,
    /^POST \/api\/auth\/login\/admin 200 in \d+ ms$/,
    /^POST \/voice\/api\/v1\/admin\/token 200 in \d+ ms$/,
    /^GET \/voice\/api\/v1\/admin\/token 200 in \d+ ms$/,
    /^DELETE \/voice\/api\/v1\/admin\/token\/\{apiToken\} 200 in \d+ ms$/,
  ]) {
    expect(lines).toContainEqual(expect.stringMatching(expected));
  }
  expect(lines).toContainEqual(
    expect.stringMatching(/^Renewed the tokens of tenant "default" \(refresh\), sequence \d+/),
  );
});
