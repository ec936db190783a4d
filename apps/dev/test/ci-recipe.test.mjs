// The README's CI recipe, run exactly as printed: the mock starts, is waited for, the "tests" (an
// `npm` on PATH that stands in for the user's and calls the mock) pass, and the mock is stopped.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { freePort } from "@engage-voice/test-kit/servers";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const run = promisify(execFile);

test("the README's CI recipe starts the mock, runs the tests against it and stops it", async () => {
  const readme = await readFile(join(root, "README.md"), "utf8");
  const block = readme.slice(
    readme.indexOf("<!-- ci-recipe:start -->"),
    readme.indexOf("<!-- ci-recipe:end -->"),
  );
  const script = block.slice(block.indexOf("```sh\n") + 6, block.lastIndexOf("```"));
  assert.match(script, /npm test/);
  const bin = await mkdtemp(join(tmpdir(), "ev-ci-recipe-"));
  const seen = join(bin, "seen");
  // The user's tests: they call the mock at the URL the recipe gives them.
  await writeFile(
    join(bin, "npm"),
    `#!/usr/bin/env bash\nset -e\ncurl -fsS -H 'Authorization: Bearer t' "$ENGAGE_VOICE_BASE_URL/voice/api/v1/admin/accounts" > "${seen}"\n`,
  );
  await chmod(join(bin, "npm"), 0o755);
  const port = await freePort();
  try {
    await run("bash", ["-e", "-c", script], {
      cwd: root,
      // As in a CI job, `node` is the real binary (a package manager's node shim would be killed
      // in its place by the recipe's trap, and leave the mock running).
      env: {
        ...process.env,
        MOCK_PORT: String(port),
        PATH: `${dirname(process.execPath)}:${bin}:${process.env.PATH}`,
      },
      timeout: 120_000,
    }).catch(async (error) => {
      throw new Error(`${error.message}\n${await readFile(join(root, "mock.log"), "utf8").catch(() => "")}`);
    });
    const accounts = JSON.parse(await readFile(seen, "utf8"));
    assert.ok(Array.isArray(accounts) && accounts.length > 0);
    // Stopped: the port is free again.
    const answer = await fetch(`http://127.0.0.1:${port}/`).catch((e) => e);
    assert.ok(answer instanceof Error, "the mock still answers after the recipe ended");
  } finally {
    await rm(bin, { recursive: true, force: true });
    await rm(join(root, "mock.log"), { force: true });
  }
});
