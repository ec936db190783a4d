// npm in the tests talks to local registries only. One that does not answer must fail the test at
// once, naming the connection: with npm's default retries it waited over a minute of backoff first.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { plainEnv } from "../src/env.mjs";

const run = promisify(execFile);

test("npm in plainEnv tries a registry that drops every connection once, and fails naming it", async () => {
  let connections = 0;
  const registry = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise((resolve) => registry.listen(0, "127.0.0.1", resolve));
  const cache = await mkdtemp(join(tmpdir(), "ev-npm-cache-"));
  try {
    const url = `http://127.0.0.1:${registry.address().port}/`;
    const error = await run("npm", ["view", "openapi-fetch@0.17.0", "version"], {
      env: plainEnv({ npm_config_registry: url, npm_config_cache: cache }),
    }).catch((e) => e);
    assert.ok(error instanceof Error, "npm view succeeded against a registry that answers nothing");
    assert.match(error.stderr, /ECONNRESET/);
    assert.equal(connections, 1, "npm tried the registry again");
  } finally {
    registry.close();
    await rm(cache, { recursive: true, force: true });
  }
});
