// Several processes share one Redis key (`redisStore`, with its lock): when the access token has
// expired and all of them need a token at the same moment, exactly one refresh is made, nobody
// presents a spent refresh token, and every process gets the same new access token. Real time,
// real processes, the real sandbox and a real redis-server on 127.0.0.1.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createTokenManager } from "@engage-voice/auth";
import { createClient } from "@engage-voice/client";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { redisStore } from "../src/index.js";
import { connect, freshKey, pause } from "./helpers.js";

const run = promisify(execFile);
const child = new URL("./fixtures/shared-redis-child.mjs", import.meta.url).pathname;
const parentToken = "sandbox-rc-token-ada";
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenLifetimeMs: 2000 });
});
afterAll(async () => {
  await sandbox?.stop();
});

it("four processes on one Redis key make one refresh across an expiry", { timeout: 30_000 }, async () => {
  const key = freshKey();
  const first = createTokenManager({
    baseUrl: sandbox.mainUrl,
    rcAccessToken: parentToken,
    store: redisStore({ client: await connect(), key }),
  });
  const initial = await first.getAccessToken();
  // JWT times are whole seconds: wait until the token has certainly expired.
  await pause(3100);
  const goAt = Date.now() + 1500;
  const outputs = await Promise.all(
    Array.from({ length: 4 }, () =>
      run(process.execPath, [child, sandbox.mainUrl, inject("redisUrl"), key, parentToken, String(goAt)], {
        timeout: 20_000,
      }),
    ),
  );
  const results = outputs.map(
    ({ stdout }) =>
      JSON.parse(stdout) as {
        calls: { exchange: number; refresh: number; rejected: number };
        accessToken: string;
      },
  );
  const total = (key: "exchange" | "refresh" | "rejected") => results.reduce((n, r) => n + r.calls[key], 0);
  expect(total("refresh")).toBe(1);
  expect(total("rejected")).toBe(0);
  expect(total("exchange")).toBe(0);
  const tokens = new Set(results.map((r) => r.accessToken));
  expect(tokens.size).toBe(1);
  expect(tokens.has(initial)).toBe(false);
  const client = createClient({ baseUrl: sandbox.mainUrl });
  const { response } = await client.GET("/voice/api/v1/admin/accounts", {
    headers: { Authorization: `Bearer ${[...tokens][0]}` },
  });
  expect(response.status).toBe(200);
});
