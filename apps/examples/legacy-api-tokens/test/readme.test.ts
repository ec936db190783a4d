// The README's run as printed, against a sandbox on free ports: what it prints, no permanent token
// left behind, and no credential in anything printed.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { apiTokens, legacyLogin } from "@engage-voice/auth";
import { startSandbox } from "@engage-voice/sandbox";
import { readmeBlock, readmeShell, secretsIn } from "@engage-voice/test-kit/readme";

const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");

test("the README's chores: a login, a permanent token created, used and deleted", async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.stop());
  const shell = await readmeShell(readme, {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    set: { ENGAGE_VOICE_LEGACY_BASE_URL: sandbox.legacyUrl },
  });

  const [run] = await shell.lines("run", 30_000);
  assert.equal(run?.stdout, `${readmeBlock(readme, "output").join("\n")}\n`);
  assert.match(run?.stderr ?? "", /deprecated/);

  // The same user, logged in by the test: the script's token is gone.
  const { accessToken } = await legacyLogin({
    baseUrl: sandbox.legacyUrl,
    username: shell.env.EV_USERNAME ?? "",
    password: shell.env.EV_PASSWORD ?? "",
    platformId: shell.env.EV_PLATFORM_ID ?? "",
    logger: {},
  });
  assert.deepEqual(await apiTokens({ baseUrl: sandbox.legacyUrl, auth: { accessToken } }).list(), []);

  assert.deepEqual(secretsIn(shell.transcript(), [shell.env.EV_PASSWORD ?? "", accessToken]), []);
});
