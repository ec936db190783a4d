// The README's walk-through as printed, on free ports: the service's first calls, a restart that
// resumes the sessions from Redis (the sandbox's counters: no new exchange), a SIGTERM that lets the
// request in flight finish, and no credential in anything printed.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { startSandbox } from "@engage-voice/sandbox";
import { redisNames } from "@engage-voice/store-redis";
import { readmeBlock, readmeShell, secretsIn } from "@engage-voice/test-kit/readme";
import { freePort, startRedis } from "@engage-voice/test-kit/servers";
import { createClient } from "redis";

const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
const tenants = JSON.parse(await readFile(new URL("../sandbox-tenants.json", import.meta.url), "utf8"));
const expected = (block: string) => `${readmeBlock(readme, block).join("\n")}\n`;

test("the README's service: first calls, a restart from Redis, a SIGTERM mid-request", async (t) => {
  const sandbox = await startSandbox({ tenants: 1, faults: { enabled: true } });
  t.after(() => sandbox.stop());
  assert.match(readme, /engage-voice-sandbox --tenants 1 /, "the README's sandbox has the second tenant too");
  const redis = await startRedis();
  t.after(() => redis.stop());
  const port = await freePort();
  const shell = await readmeShell(readme, {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    set: { ENGAGE_VOICE_BASE_URL: sandbox.mainUrl, REDIS_URL: redis.url, PORT: String(port) },
  });
  const exchanges = () => [0, 1].map((tenant) => sandbox.control.counters(tenant).exchanges);
  const started = async () => {
    const service = shell.start("serve");
    t.after(() => service.stop("SIGKILL", 10_000));
    await service.waitForOutput(/listening on http:\/\/127\.0\.0\.1:\d+/, 30_000);
    return service;
  };

  let service = await started();
  const [acme, globex, metrics] = await shell.lines("first-calls");
  const emails = (answer: typeof acme) =>
    (JSON.parse(answer?.stdout ?? "") as { userName: string }[]).map((user) => user.userName.split("@")[1]);
  assert.deepEqual(new Set(emails(acme)), new Set(["example.com"]));
  assert.deepEqual(new Set(emails(globex)), new Set(["tenant-1.example.com"]));
  assert.equal(metrics?.stdout, expected("metrics-first"));
  assert.deepEqual(exchanges(), [1, 1], "one exchange for each tenant's first call");
  assert.equal(await service.stop("SIGINT", 30_000), 0);
  assert.match(service.output.stdout, /SIGINT: closed/);

  service = await started();
  const [again, metricsAgain] = await shell.lines("after-restart");
  assert.equal(again?.stdout, acme?.stdout);
  assert.equal(metricsAgain?.stdout, expected("metrics-after-restart"));
  assert.deepEqual(exchanges(), [1, 1], "the restarted service resumed the sessions from Redis");

  // A deploy's SIGTERM while a request waits on the API (3 s, held by the sandbox): it is answered.
  sandbox.faults.next({ kind: "delay", ms: 3_000, path: "/voice/api/v1/admin/users" });
  let signalled = false;
  const answer = fetch(`http://127.0.0.1:${port}/tenants/acme/users`).then((response) => ({
    status: response.status,
    afterSignal: signalled,
  }));
  while (sandbox.faults.pending > 0) {
    await sleep(20);
  }
  signalled = true;
  const exit = service.stop("SIGTERM", 30_000);
  assert.deepEqual(await answer, { status: 200, afterSignal: true });
  assert.equal(await exit, 0);

  const client = await createClient({ url: redis.url }).connect();
  const stored = await Promise.all(Object.keys(tenants).map((id) => client.get(redisNames(id).tokens)));
  await client.close();
  const sessions = stored.map(
    (text) => JSON.parse(text ?? "{}") as { accessToken: string; refreshToken: string },
  );
  assert.equal(sessions.filter((session) => session.refreshToken).length, 2, "both sessions are in Redis");
  const secrets = [
    ...Object.values(tenants).map((tenant) => (tenant as { rcAccessToken: string }).rcAccessToken),
    ...sessions.flatMap(({ accessToken, refreshToken }) => [accessToken, refreshToken]),
  ];
  assert.deepEqual(secretsIn(shell.transcript(), secrets), []);
});
