// Several processes share one tenant's Redis keys (`redisStore`, with its lock): when the access token has
// expired and all of them need a token at the same moment, exactly one refresh is made, nobody
// presents a spent refresh token, and every process gets the same new access token. Real processes,
// the real sandbox and a real redis-server on 127.0.0.1; the expiry is written into the stored set.

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createTokenManager } from "@engage-voice/auth";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { redisNames, redisStore } from "@engage-voice/store-redis";
import { expectOneRefreshForAllProcesses, expired } from "@engage-voice/test-kit";
import { createClient } from "redis";
import { afterAll, beforeAll, expect, inject, it } from "vitest";

const child = new URL("./fixtures/shared-redis-child.mjs", import.meta.url).pathname;
const parentToken = "sandbox-rc-token-ada";
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenLifetimeMs: 60_000 });
});
afterAll(async () => {
  await sandbox?.stop();
});

it("runs node-redis 5, the major the store-redis README says these processes hold (its own tests run 6)", () => {
  const manifest = new URL("../node_modules/redis/package.json", import.meta.url);
  expect(JSON.parse(readFileSync(manifest, "utf8")).version).toMatch(/^5\./);
});

it("four processes on one tenant's keys make one refresh across an expiry", { timeout: 90_000 }, async () => {
  const tenant = `e2e-${randomUUID()}`;
  const key = redisNames(tenant).tokens;
  const redis = await createClient({ url: inject("redisUrl") }).connect();
  try {
    const first = createTokenManager({
      baseUrl: sandbox.mainUrl,
      rcAccessToken: parentToken,
      store: redisStore({ client: redis, tenant }),
    });
    await expectOneRefreshForAllProcesses({
      child,
      args: [sandbox.mainUrl, inject("redisUrl"), tenant, parentToken],
      initial: await first.getAccessToken(),
      mainUrl: sandbox.mainUrl,
      expire: async () => void (await redis.set(key, expired(String(await redis.get(key))))),
    });
  } finally {
    await redis.close();
  }
});
