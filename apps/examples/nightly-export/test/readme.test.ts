// The README's two runs as printed, on a free port with the token file in a temporary folder: one
// exchange for both, each run ending by itself, and a refresh rather than an exchange once the
// sandbox's clock has passed the access token's lifetime.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { startSandbox } from "@engage-voice/sandbox";
import { readmeShell, secretsIn } from "@engage-voice/test-kit/readme";

const here = fileURLToPath(new URL("..", import.meta.url));
const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");

test("the README's export: two runs, one exchange, each ending by itself", async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.stop());
  const folder = await mkdtemp(join(tmpdir(), "nightly-export-"));
  const tokenFile = join(folder, "engage-voice.json");
  t.after(() =>
    Promise.all([rm(folder, { recursive: true }), rm(join(here, "export.ndjson"), { force: true })]),
  );
  const shell = await readmeShell(readme, {
    cwd: here,
    set: { ENGAGE_VOICE_BASE_URL: sandbox.mainUrl, TOKEN_FILE: tokenFile },
  });

  // A run that did not end by itself (a handle left open) is killed at the deadline, and fails.
  const [first, second, head] = await shell.lines("runs", 30_000);
  assert.equal(first?.stderr, "exported 3 accounts and 6 users\n");
  assert.equal(second?.stderr, first?.stderr);
  const lines = (await readFile(join(here, "export.ndjson"), "utf8")).trimEnd().split("\n");
  assert.deepEqual(
    lines.map((line) => JSON.parse(line).kind),
    [...Array(3).fill("account"), ...Array(6).fill("user")],
  );
  assert.equal(head?.stdout, `${lines[0]}\n`);
  const counters = () => {
    const { exchanges, refreshes } = sandbox.control.counters();
    return { exchanges, refreshes };
  };
  assert.deepEqual(
    counters(),
    { exchanges: 1, refreshes: 0 },
    "the second run took the session from the file",
  );

  // The next night, for the sandbox: its access token has expired; the refresh token renews it.
  sandbox.control.advance(sandbox.settings.tokenLifetimeMs + 60_000);
  await shell.lines("runs", 30_000);
  assert.deepEqual(counters(), { exchanges: 1, refreshes: 1 });

  const stored = JSON.parse(await readFile(tokenFile, "utf8"));
  const secrets = [shell.env.RC_ACCESS_TOKEN ?? "", stored.accessToken, stored.refreshToken];
  assert.deepEqual(secretsIn(`${shell.transcript()}\n${lines.join("\n")}`, secrets), []);
});
