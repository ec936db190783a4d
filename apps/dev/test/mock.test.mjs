// `pnpm mock` (src/mock.mjs): refuses a busy port in one line, and does not mislead a token
// manager: against the mock, it makes one exchange and no refresh. Needs `pnpm build` first.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createTokenManager } from "@engage-voice/auth";
import { freePort, startPrism } from "@engage-voice/test-kit/servers";

const mock = fileURLToPath(new URL("../src/mock.mjs", import.meta.url));
const run = promisify(execFile);
let prism;

before(async () => {
  prism = await startPrism();
});
after(async () => {
  await prism?.stop();
});

test("Prism keeps idle connections open, so a stalled test never sends on a socket it closed", async () => {
  // Node's server announces its idle timeout (`Keep-Alive: timeout=5`) whenever it has one.
  const response = await fetch(`${prism.url}/voice/api/v1/admin/accounts`, {
    headers: { Authorization: "Bearer x" },
  });
  await response.arrayBuffer();
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("keep-alive"), null);
});

test("a busy port is one line on stderr and exit code 1, before Prism starts", async () => {
  const holder = createServer();
  const port = await freePort();
  await new Promise((resolve) => holder.listen(port, "127.0.0.1", resolve));
  try {
    const error = await run(process.execPath, [mock], {
      env: { ...process.env, PORT: String(port) },
      timeout: 20_000,
    }).catch((e) => e);
    assert.equal(error.code, 1);
    assert.equal(error.stdout, "");
    const lines = error.stderr.trim().split("\n");
    assert.equal(lines.length, 1, error.stderr);
    assert.match(
      lines[0],
      new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use.*PORT=${port + 1} pnpm mock`),
    );
  } finally {
    holder.close();
  }
});

/** What `pnpm mock` printed, and when it said it was ready (rejected if it exited first). */
function untilReady(child) {
  let output = "";
  const ready = new Promise((resolve, reject) => {
    const read = (chunk) => {
      output += chunk;
      if (output.includes("Prism mock of both hosts")) {
        resolve();
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", () => reject(new Error(`pnpm mock exited before it was ready:\n${output}`)));
  });
  return { ready, output: () => output };
}

test("starts without an error line: its readiness probe is a preflight Prism answers before routing", async () => {
  const port = await freePort();
  const child = spawn(process.execPath, [mock], {
    env: { ...process.env, PORT: String(port), FORCE_COLOR: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const printed = untilReady(child);
  try {
    await printed.ready;
  } finally {
    child.kill("SIGTERM");
    await once(child, "exit");
  }
  assert.doesNotMatch(printed.output(), /NO_PATH_MATCHED_ERROR|✖|\berror\b/i, printed.output());
});

test("Ctrl-C on `pnpm mock` ends it with status 0 and no ELIFECYCLE line from pnpm", async () => {
  // A terminal's Ctrl-C reaches its whole foreground group: pnpm, the shell it runs the script in, and
  // the script. Without `exec`, Debian's sh reports the interrupt as its own status (130) and pnpm
  // prints "ELIFECYCLE Command failed" after a clean stop.
  // As a user's shell runs it: no pnpm settings of this test's own run, and no node_modules/.bin on
  // PATH (whose `node` shim would put one more /bin/sh under the `#!/usr/bin/env node` of pnpm).
  const port = await freePort();
  const shell = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)),
  );
  shell.PATH = (process.env.PATH ?? "")
    .split(":")
    .filter((entry) => entry !== "" && !entry.includes("node_modules"))
    .join(":");
  const child = spawn("pnpm", ["run", "mock"], {
    cwd: fileURLToPath(new URL("../../..", import.meta.url)),
    env: { ...shell, PORT: String(port), FORCE_COLOR: "0" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const exited = once(child, "exit");
  const printed = untilReady(child);
  await printed.ready;
  process.kill(-child.pid, "SIGINT");
  const [code, signal] = await exited;
  assert.deepEqual({ code, signal }, { code: 0, signal: null }, printed.output());
  assert.doesNotMatch(printed.output(), /ELIFECYCLE/, printed.output());
});

test("a PORT that is not a port is a usage error", async () => {
  const error = await run(process.execPath, [mock], {
    env: { ...process.env, PORT: "http" },
    timeout: 20_000,
  }).catch((e) => e);
  assert.equal(error.code, 2);
  assert.match(error.stderr, /PORT must be a port number/);
});

test("a token manager against the mock makes one exchange and no refresh", async () => {
  const calls = [];
  const fetchCounting = (request) => {
    calls.push(new URL(request.url).pathname);
    return fetch(request);
  };
  // A Prism of its own: the tests before it start and stop `pnpm mock`'s, by signals to process groups.
  const own = await startPrism();
  try {
    const auth = createTokenManager({
      baseUrl: own.url,
      rcAccessToken: "any-parent-token",
      fetch: fetchCounting,
      logger: {},
    });
    const client = auth.client();
    for (let i = 0; i < 5; i++) {
      const { response } = await client.GET("/voice/api/v1/admin/accounts");
      assert.equal(response.status, 200);
    }
  } finally {
    await own.stop();
  }
  // The examples' access tokens expire in 2100: with a past exp, every call would refresh first.
  assert.deepEqual(
    calls.filter((path) => path.startsWith("/api/auth/")),
    ["/api/auth/login/rc/accesstoken"],
  );
});
