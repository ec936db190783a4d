// The README's walk-through as printed, on free ports: the service's first calls, a restart that
// resumes the sessions from Redis (the sandbox's counters: no new exchange), a SIGTERM that lets the
// request in flight finish, and no credential in anything printed; then the service with
// OpenTelemetry's SDK preloaded, its spans and metrics read back from the file it writes them to.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
const cwd = fileURLToPath(new URL("..", import.meta.url));

/**
 * What nothing may print: the credentials (the parent tokens, the access and refresh tokens of the
 * sessions in Redis), and the account ids that a concrete path would hold.
 */
async function secretsAndIds(redisUrl: string) {
  const client = await createClient({ url: redisUrl }).connect();
  const stored = await Promise.all(Object.keys(tenants).map((id) => client.get(redisNames(id).tokens)));
  await client.close();
  const sessions = stored.map(
    (text) => JSON.parse(text ?? "{}") as { accessToken: string; refreshToken: string; accountIds: string[] },
  );
  assert.equal(sessions.filter((session) => session.refreshToken).length, 2, "both sessions are in Redis");
  const parents = Object.values(tenants) as { rcAccessToken: string; mainAccountId: string }[];
  return {
    secrets: [
      ...parents.map((tenant) => tenant.rcAccessToken),
      ...sessions.flatMap(({ accessToken, refreshToken }) => [accessToken, refreshToken]),
    ],
    accountIds: [...parents.map((tenant) => tenant.mainAccountId), ...sessions.flatMap((s) => s.accountIds)],
  };
}

test("the README's service: first calls, a restart from Redis, a SIGTERM mid-request", async (t) => {
  const sandbox = await startSandbox({ tenants: 1, faults: { enabled: true } });
  t.after(() => sandbox.stop());
  assert.match(readme, /engage-voice-sandbox --tenants 1 /, "the README's sandbox has the second tenant too");
  const redis = await startRedis();
  t.after(() => redis.stop());
  const port = await freePort();
  const shell = await readmeShell(readme, {
    cwd,
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

  const { secrets } = await secretsAndIds(redis.url);
  assert.deepEqual(secretsIn(shell.transcript(), secrets), []);
});

interface SpanLine {
  span: string;
  id: string;
  parent?: string;
  kind: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes?: Record<string, unknown> }[];
}
interface MetricLine {
  metric: string;
  points: { attributes: Record<string, unknown>; value: unknown }[];
}

test("the README's traced service: its spans and metrics, and no credential or concrete path in them", async (t) => {
  const sandbox = await startSandbox({ tenants: 1 });
  t.after(() => sandbox.stop());
  const redis = await startRedis();
  t.after(() => redis.stop());
  const folder = await mkdtemp(join(tmpdir(), "fastify-tenants-spans-"));
  t.after(() => rm(folder, { recursive: true, force: true }));
  const spansFile = join(folder, "spans.jsonl");
  const shell = await readmeShell(readme, {
    cwd,
    set: {
      ENGAGE_VOICE_BASE_URL: sandbox.mainUrl,
      REDIS_URL: redis.url,
      PORT: String(await freePort()),
      OTEL_SPANS_FILE: spansFile,
    },
  });
  const service = shell.start("serve-traced");
  t.after(() => service.stop("SIGKILL", 10_000));
  await service.waitForOutput(/listening on http:\/\/127\.0\.0\.1:\d+/, 30_000);
  const [acme, globex] = await shell.lines("first-calls");
  for (const answer of [acme, globex]) {
    assert.ok((JSON.parse(answer?.stdout ?? "") as unknown[]).length > 0, "the tenant's users");
  }
  // The SDK writes what it holds once the service has closed: after SIGTERM, before the exit.
  assert.equal(await service.stop("SIGTERM", 30_000), 0);
  assert.match(service.output.stdout, /SIGTERM: closed/);

  // No file if nothing was written (no observer, no SDK): no span either.
  const lines = (await readFile(spansFile, "utf8").catch(() => ""))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as SpanLine | MetricLine);
  const spans = lines.filter((line): line is SpanLine => "span" in line);
  const metrics = lines.filter((line): line is MetricLine => "metric" in line);
  const named = (name: string) => spans.filter((span) => span.span === name);

  const users = named("GET /voice/api/v1/admin/users");
  assert.equal(users.length, 2, "one API call per tenant");
  for (const span of users) {
    assert.equal(span.kind, "CLIENT");
    assert.equal(span.attributes["url.template"], "/voice/api/v1/admin/users");
    assert.equal(span.attributes["http.response.status_code"], 200);
  }
  const exchanges = named("engage_voice.token.exchange");
  assert.deepEqual(exchanges.map((span) => span.attributes["engage_voice.tenant"]).sort(), [
    "acme",
    "globex",
  ]);
  for (const exchange of exchanges) {
    // Nested by the context manager: the exchange's request beneath it, the exchange beneath a wait.
    const requests = named("POST /api/auth/login/rc/accesstoken").filter(
      (span) => span.parent === exchange.id,
    );
    assert.equal(requests.length, 1, "the exchange's request is its child");
    const wait = spans.find((span) => span.id === exchange.parent);
    assert.equal(wait?.span, "engage_voice.token.wait");
    assert.equal(wait?.attributes["engage_voice.tenant"], exchange.attributes["engage_voice.tenant"]);
  }
  const renewals = metrics.find((metric) => metric.metric === "engage_voice.token.renewals");
  assert.deepEqual(
    renewals?.points
      .map(({ attributes, value }) => [
        attributes["engage_voice.renewal.outcome"],
        attributes["engage_voice.tenant"],
        value,
      ])
      .sort(),
    [
      ["exchanged", "acme", 1],
      ["exchanged", "globex", 1],
    ],
  );
  for (const name of [
    "http.client.request.duration",
    "engage_voice.token.call.duration",
    "engage_voice.token.wait.duration",
  ]) {
    assert.ok(
      metrics.some((metric) => metric.metric === name),
      name,
    );
  }

  // Every name and value a span or a metric carries: no credential, no id, no query, no full URL.
  const texts = [
    ...spans.flatMap((span) => [
      span.span,
      ...Object.values(span.attributes),
      ...span.events.flatMap((event) => [event.name, ...Object.values(event.attributes ?? {})]),
    ]),
    ...metrics.flatMap((metric) => [
      metric.metric,
      ...metric.points.flatMap((point) => Object.values(point.attributes)),
    ]),
  ].map(String);
  const { secrets, accountIds } = await secretsAndIds(redis.url);
  assert.deepEqual(secretsIn(texts.join("\n"), secrets), []);
  assert.deepEqual(
    texts.filter((text) => accountIds.some((id) => text.includes(id)) || text.includes("?")),
    [],
    "no concrete path",
  );
  for (const span of spans.filter((span) => span.kind === "CLIENT")) {
    assert.equal(span.span, `${span.attributes["http.request.method"]} ${span.attributes["url.template"]}`);
    assert.equal(span.attributes["url.full"], undefined);
  }
  assert.deepEqual(secretsIn(shell.transcript(), secrets), []);
});
