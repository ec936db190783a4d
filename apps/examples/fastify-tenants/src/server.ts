// One service for many customers (tenants): each request names its tenant, the pool hands out that
// tenant's token manager, and Redis keeps every tenant's session, so a restart resumes them all.
import { readFile } from "node:fs/promises";
import { createTenantPool } from "@engage-voice/auth";
import { openTelemetry } from "@engage-voice/auth/opentelemetry";
import { redisStore } from "@engage-voice/store-redis";
import Fastify from "fastify";
import { createClient } from "redis";
import { countEvent, metricsText } from "./metrics.ts";

// For the demo, each tenant's parent-platform token in a JSON file; yours come from a secret store.
const tenants: Record<string, { rcAccessToken: string; mainAccountId: string }> = JSON.parse(
  await readFile(process.env.TENANTS_FILE ?? "tenants.json", "utf8"),
);

const redis = await createClient({ url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" }).connect();
const subscriber = await redis.duplicate().connect(); // wakes a renewal waiting for a tenant's lock

const pool = createTenantPool({
  rcAccessToken: (tenant) => tenants[tenant]?.rcAccessToken ?? "",
  mainAccountId: (tenant) => tenants[tenant]?.mainAccountId, // a tenant is served its own account only
  store: (tenant) => redisStore({ client: redis, subscriber, tenant }),
  manager: {
    baseUrl: process.env.ENGAGE_VOICE_BASE_URL ?? "https://engage.ringcentral.com",
    timeoutMs: 10_000,
    observer: openTelemetry(), // spans and metrics: a no-op until an SDK is registered (src/telemetry.ts)
  },
  onEvent: countEvent,
});

/** The tenant's client: ask the pool on every request (it lets idle tenants go). */
function clientOf(tenant: string) {
  if (!Object.hasOwn(tenants, tenant)) {
    throw Object.assign(new Error("Unknown tenant"), { statusCode: 404 });
  }
  return pool.get(tenant).client();
}

const app = Fastify();
app.get<{ Params: { tenant: string } }>("/tenants/:tenant/users", async (request, reply) => {
  const { data, error, response } = await clientOf(request.params.tenant).GET("/voice/api/v1/admin/users");
  return error === undefined ? data : reply.code(502).send({ upstreamStatus: response.status, error });
});
app.get("/metrics", async (_request, reply) => reply.type("text/plain; version=0.0.4").send(metricsText()));

// After the last request has ended: the pool stores every renewal in flight, then Redis goes.
app.addHook("onClose", async () => {
  await pool.close({ timeoutMs: 5_000 });
  await Promise.all([subscriber.close(), redis.close()]);
});

// Once closing, each answer closes its connection: a client's kept-alive one would hold close() up.
app.addHook("onSend", async (_request, reply) => {
  if (!app.server.listening) {
    reply.header("connection", "close");
  }
});

// On a deploy's SIGTERM (or Ctrl-C): take no more requests, finish those in flight, close, exit 0.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, async () => {
    setTimeout(() => process.exit(1), 20_000).unref(); // the bound: a stuck close is cut short
    await app.close();
    console.log(`${signal}: closed`);
  });
}

const address = await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 3000) });
console.log(`listening on ${address}`);
