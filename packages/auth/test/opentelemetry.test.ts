// `@engage-voice/auth/opentelemetry` against the fake hosts (the sandbox with faults on top), its
// spans and metrics read back through the OpenTelemetry SDK's in-memory exporters. Span times and
// durations come from the hosts' fake clock, which the observer is given too: they are exact.
import { readFileSync } from "node:fs";
import { createClient } from "@engage-voice/client";
import { context, type HrTime, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiTokens, createTenantPool, createTokenManager, legacyLogin } from "../src/index.js";
import { type OpenTelemetryOptions, openTelemetry } from "../src/opentelemetry.js";
import { createSandboxApps, fakeClock, hostsFor, LEGACY_BASE, LEGACY_USER } from "./fake-server.js";

/** The HTTP semantic conventions' advised boundaries of `http.client.request.duration`, in seconds. */
const SEMCONV_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const ACCOUNTS = "/voice/api/v1/admin/accounts";
const EXCHANGE = "/api/auth/login/rc/accesstoken";
const REFRESH = "/api/auth/token/refresh";
/** How long each token call takes on the fake clock. */
const LATENCY_MS = 200;

// Spans nest through the active context, as under the Node SDK, which registers this manager.
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  context.disable();
});

/** Every name, attribute key and metric the tests saw: the README must name each (last test). */
const seen = new Set<string>();

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
});

/** The observer on in-memory exporters: spans as they end, metrics when collected (no timer waited on). */
function telemetry(options: OpenTelemetryOptions = {}) {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: spanExporter })],
  });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Collected by forceFlush() only: the interval is never reached.
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const observer = openTelemetry({ tracerProvider, meterProvider, ...options });
  const opened_ = {
    observer,
    spans(): ReadableSpan[] {
      const spans = spanExporter.getFinishedSpans();
      for (const span of spans) {
        seen.add(span.name.replace(/^(GET|POST|DELETE) .*/, "{method} {url.template}"));
        for (const key of Object.keys(span.attributes)) {
          seen.add(key);
        }
        for (const event of span.events) {
          seen.add(event.name);
          for (const key of Object.keys(event.attributes ?? {})) {
            seen.add(key);
          }
        }
      }
      return spans;
    },
    reset: () => spanExporter.reset(),
    async metrics(): Promise<MetricData[]> {
      await reader.forceFlush();
      const metrics = (metricExporter.getMetrics().at(-1)?.scopeMetrics ?? []).flatMap((s) => s.metrics);
      for (const metric of metrics) {
        seen.add(metric.descriptor.name);
        for (const point of metric.dataPoints) {
          for (const key of Object.keys(point.attributes)) {
            seen.add(key);
          }
        }
      }
      return metrics;
    },
    async close() {
      await meterProvider.shutdown();
      await tracerProvider.shutdown();
    },
  };
  opened.push(opened_);
  return opened_;
}

/** A manager on fresh fake hosts whose token calls take {@link LATENCY_MS}, observed on their clock. */
function observed(options: OpenTelemetryOptions = {}) {
  const hosts = hostsFor({ tokenLatencyMs: LATENCY_MS });
  const otel = telemetry({ clock: hosts.clock, ...options });
  const { auth } = hosts.managerOn(undefined, { observer: otel.observer });
  return { ...hosts, otel, auth };
}

type OpenTelemetryObserver = ReturnType<typeof openTelemetry>;

/** The deprecated host's chores on the fake hosts: a direct login, then its permanent-token calls, observed. */
async function permanentTokensOn(
  server: ReturnType<typeof hostsFor>["server"],
  clock: ReturnType<typeof fakeClock>,
  observer: OpenTelemetryObserver,
) {
  const { accessToken } = await legacyLogin({
    baseUrl: LEGACY_BASE,
    ...LEGACY_USER,
    fetch: server.fetch,
    clock,
    logger: {},
    observer,
  });
  return apiTokens({
    baseUrl: LEGACY_BASE,
    auth: { accessToken },
    fetch: server.fetch,
    clock,
    logger: {},
    observer,
  });
}

const ms = ([seconds, nanos]: HrTime) => seconds * 1000 + nanos / 1e6;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const named = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);

/** One metric's points, by name. */
function pointsOf(metrics: MetricData[], name: string) {
  return metrics.find((m) => m.descriptor.name === name)?.dataPoints ?? [];
}

/** The low-cardinality attributes of a call to the fake contact-center host: the metric's. */
const ofCall = (method: string, template: string) => ({
  "http.request.method": method,
  "server.address": "engage.example.test",
  "server.port": 443,
  "url.template": template,
});
/** What the HTTP client span of a call to the fake contact-center host carries before its outcome. */
const onHost = (method: string, template: string) => ({ ...ofCall(method, template), "url.scheme": "https" });

describe("openTelemetry(): spans", () => {
  it("makes a CLIENT span of an API call, with its wait for a token and the exchange beneath it", async () => {
    const { auth, otel } = observed();
    const { response } = await auth.client().GET(ACCOUNTS);
    expect(response.status).toBe(200);
    const spans = otel.spans();
    // In the order they ended: the innermost first.
    expect(spans.map((s) => s.name)).toEqual([
      `POST ${EXCHANGE}`,
      "engage_voice.token.exchange",
      "engage_voice.token.wait",
      `GET ${ACCOUNTS}`,
    ]);
    const [post, exchange, wait, call] = spans as [ReadableSpan, ReadableSpan, ReadableSpan, ReadableSpan];
    expect(call.kind).toBe(SpanKind.CLIENT);
    expect(call.attributes).toEqual({ ...onHost("GET", ACCOUNTS), "http.response.status_code": 200 });
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    expect(call.events).toEqual([]);

    expect(parentOf(wait)).toBe(idOf(call));
    expect(wait.kind).toBe(SpanKind.INTERNAL);
    expect(wait.attributes).toEqual({ "engage_voice.tenant": "default" });
    expect(ms(wait.duration)).toBe(LATENCY_MS);

    expect(parentOf(exchange)).toBe(idOf(wait));
    expect(exchange.kind).toBe(SpanKind.INTERNAL);
    expect(exchange.attributes).toEqual({
      "engage_voice.token.operation": "exchange",
      "engage_voice.tenant": "default",
    });
    expect(ms(exchange.duration)).toBe(LATENCY_MS);

    expect(parentOf(post)).toBe(idOf(exchange));
    expect(post.kind).toBe(SpanKind.CLIENT);
    expect(post.attributes).toEqual({ ...onHost("POST", EXCHANGE), "http.response.status_code": 200 });
  });

  it("gives a retried call (429, then 200) one event per retry with its reason and wait, and its resend count", async () => {
    const { auth, otel, server, sleeps } = observed();
    await auth.getAccessToken();
    otel.reset();
    server.fail("accounts", { status: 429, headers: { "Retry-After": "1" } });
    const { response } = await auth.client().GET(ACCOUNTS);
    expect(response.status).toBe(200);
    const [call] = otel.spans() as [ReadableSpan];
    expect(otel.spans()).toHaveLength(1);
    expect(call.attributes).toEqual({
      ...onHost("GET", ACCOUNTS),
      "http.response.status_code": 200,
      "http.request.resend_count": 1,
    });
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    const waited = sleeps.at(-1) as number;
    expect(call.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        "engage_voice.retry",
        {
          "http.request.resend_count": 1,
          "http.response.status_code": 429,
          "error.type": "429",
          "engage_voice.retry.delay": waited / 1000,
        },
      ],
    ]);
    // The wait is in the call's span.
    expect(ms(call.duration)).toBe(waited);
  });

  it("marks a call that ends with a failed status, after its retries, as an error of that status", async () => {
    const { auth, otel, server } = observed();
    await auth.getAccessToken();
    otel.reset();
    server.fail("accounts", { status: 503 }, { status: 503 }, { status: 503 });
    const { response } = await auth.client().GET(ACCOUNTS, { maxRetries: 2 });
    expect(response.status).toBe(503);
    const [call] = otel.spans() as [ReadableSpan];
    expect(call.attributes).toEqual({
      ...onHost("GET", ACCOUNTS),
      "http.response.status_code": 503,
      "http.request.resend_count": 2,
      "error.type": "503",
    });
    expect(call.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(call.events.map((e) => e.attributes?.["http.request.resend_count"])).toEqual([1, 2]);
  });

  it("marks a call that got no answer with the error's type, and no status code", async () => {
    const { auth, otel, server } = observed();
    await auth.getAccessToken();
    otel.reset();
    server.fail("accounts", "network");
    await expect(auth.client().GET(ACCOUNTS, { maxRetries: 0 })).rejects.toThrow(TypeError);
    const [call] = otel.spans() as [ReadableSpan];
    expect(call.attributes).toEqual({ ...onHost("GET", ACCOUNTS), "error.type": "TypeError" });
    expect(call.status).toEqual({ code: SpanStatusCode.ERROR });
  });

  it("names an http origin's default port, and a retry after no answer by the error's type", async () => {
    const otel = telemetry();
    let tries = 0;
    const fetch = async () => {
      if (tries++ === 0) {
        throw new TypeError("fetch failed");
      }
      return Response.json([]);
    };
    const client = createClient({
      baseUrl: "http://localhost",
      fetch,
      observer: otel.observer,
      sleep: async () => {},
    });
    const { response } = await client.GET(ACCOUNTS, { maxRetries: 1 });
    expect(response.status).toBe(200);
    const [call] = otel.spans() as [ReadableSpan];
    expect(call.attributes).toMatchObject({
      "server.address": "localhost",
      "server.port": 80,
      "url.scheme": "http",
    });
    expect(call.events.map((e) => e.attributes)).toEqual([
      {
        "http.request.resend_count": 1,
        "error.type": "TypeError",
        "engage_voice.retry.delay": expect.any(Number),
      },
    ]);
  });

  it("marks a call past its deadline with the timeout's code", async () => {
    const { auth, otel, server } = observed();
    await auth.getAccessToken();
    otel.reset();
    server.fail("accounts", "hang");
    await expect(
      auth.fetch(`https://engage.example.test${ACCOUNTS}`, { timeoutMs: 20 }),
    ).rejects.toMatchObject({
      code: "request_timeout",
    });
    const [call] = otel.spans() as [ReadableSpan];
    expect(call.name).toBe(`GET ${ACCOUNTS}`);
    expect(call.attributes["error.type"]).toBe("request_timeout");
  });

  it("gives a call that rejects with something other than an error the error type _OTHER", async () => {
    const { auth, otel } = observed();
    await auth.getAccessToken();
    otel.reset();
    await expect(auth.client().GET(ACCOUNTS, { signal: AbortSignal.abort("left the page") })).rejects.toBe(
      "left the page",
    );
    const [call] = otel.spans() as [ReadableSpan];
    expect(call.attributes["error.type"]).toBe("_OTHER");
  });

  it("makes a span of a refresh, the parent of its HTTP request's, and of the wait for it", async () => {
    const { auth, otel, clock } = observed();
    await auth.getAccessToken();
    otel.reset();
    // Past the token's expiry: the next caller waits for a refresh.
    clock.advance(300_000);
    await auth.getAccessToken();
    const [post, refresh, wait] = otel.spans() as [ReadableSpan, ReadableSpan, ReadableSpan];
    expect(otel.spans().map((s) => s.name)).toEqual([
      `POST ${REFRESH}`,
      "engage_voice.token.refresh",
      "engage_voice.token.wait",
    ]);
    expect(refresh.attributes).toEqual({
      "engage_voice.token.operation": "refresh",
      "engage_voice.tenant": "default",
    });
    expect(ms(refresh.duration)).toBe(LATENCY_MS);
    expect(parentOf(post)).toBe(idOf(refresh));
    expect(parentOf(refresh)).toBe(idOf(wait));
    expect(post.attributes).toEqual({ ...onHost("POST", REFRESH), "http.response.status_code": 200 });
  });

  it("marks a refused refresh with its code, and shows the exchange that follows it", async () => {
    const { auth, otel, clock, server } = observed();
    await auth.getAccessToken();
    otel.reset();
    clock.advance(300_000);
    server.fail("refresh", { status: 401, body: JSON.stringify({ errorCode: "token.invalid" }) });
    await auth.getAccessToken();
    const spans = otel.spans();
    const [refresh] = named(spans, "engage_voice.token.refresh") as [ReadableSpan];
    expect(refresh.attributes).toEqual({
      "engage_voice.token.operation": "refresh",
      "engage_voice.tenant": "default",
      "error.type": "refresh_rejected",
    });
    expect(refresh.status).toEqual({ code: SpanStatusCode.ERROR });
    const [post] = named(spans, `POST ${REFRESH}`) as [ReadableSpan];
    expect(post.attributes).toMatchObject({ "http.response.status_code": 401, "error.type": "401" });
    expect(named(spans, "engage_voice.token.exchange")).toHaveLength(1);
  });

  it("makes a span of each caller's wait, and one token call for them all", async () => {
    const { auth, otel } = observed();
    await Promise.all([auth.getAccessToken(), auth.getAccessToken(), auth.getAccessToken()]);
    const waits = named(otel.spans(), "engage_voice.token.wait");
    expect(waits.map((w) => ms(w.duration))).toEqual([LATENCY_MS, LATENCY_MS, LATENCY_MS]);
    expect(named(otel.spans(), "engage_voice.token.exchange")).toHaveLength(1);
  });

  it("makes a span of a direct login, and of each permanent-token call by its template", async () => {
    const clock = fakeClock();
    const hosts = hostsFor({ clock });
    const otel = telemetry({ clock });
    const { server } = hosts;
    const tokens = await permanentTokensOn(server, clock, otel.observer);
    await tokens.delete(await tokens.create());
    const spans = otel.spans();
    expect(spans.map((s) => s.name)).toEqual([
      "POST /api/auth/login/admin",
      "engage_voice.token.legacy_login",
      "POST /voice/api/v1/admin/token",
      "DELETE /voice/api/v1/admin/token/{apiToken}",
    ]);
    expect(spans[1]?.attributes).toEqual({ "engage_voice.token.operation": "legacy_login" });
    expect(spans[3]?.attributes).toEqual({
      "http.request.method": "DELETE",
      "server.address": "portal.example.test",
      "server.port": 443,
      "url.scheme": "https",
      "url.template": "/voice/api/v1/admin/token/{apiToken}",
      "http.response.status_code": 200,
    });
  });
});

describe("openTelemetry(): metrics", () => {
  it("records http.client.request.duration in seconds, on the conventions' buckets, with low-cardinality attributes", async () => {
    const { auth, otel, server, sleeps } = observed();
    await auth.client().GET(ACCOUNTS);
    server.fail("accounts", { status: 429, headers: { "Retry-After": "1" } });
    await auth.client().GET(ACCOUNTS);
    const metrics = await otel.metrics();
    const metric = metrics.find((m) => m.descriptor.name === "http.client.request.duration") as MetricData;
    expect(metric.descriptor.unit).toBe("s");
    const points = metric.dataPoints as DataPoint<Histogram>[];
    expect(points.map((p) => [p.attributes, p.value.count, p.value.sum])).toEqual([
      [{ ...ofCall("POST", EXCHANGE), "http.response.status_code": 200 }, 1, LATENCY_MS / 1000],
      // A call's duration covers its whole run: the first one's wait for the exchange, the second's retry.
      [
        { ...ofCall("GET", ACCOUNTS), "http.response.status_code": 200 },
        2,
        (LATENCY_MS + (sleeps.at(-1) as number)) / 1000,
      ],
    ]);
    for (const point of points) {
      expect(point.value.buckets.boundaries).toEqual(SEMCONV_BUCKETS);
    }
  });

  it("counts renewals by outcome and measures token calls and waits, per tenant", async () => {
    const { auth, otel, clock, server } = observed();
    await Promise.all([auth.getAccessToken(), auth.getAccessToken()]);
    clock.advance(300_000);
    await auth.getAccessToken();
    clock.advance(300_000);
    server.fail("refresh", { status: 503 });
    await expect(auth.getAccessToken()).resolves.toBeTypeOf("string");
    const metrics = await otel.metrics();
    const tenant = { "engage_voice.tenant": "default" };
    expect(pointsOf(metrics, "engage_voice.token.renewals").map((p) => [p.attributes, p.value])).toEqual([
      [{ "engage_voice.renewal.outcome": "exchanged", ...tenant }, 1],
      [{ "engage_voice.renewal.outcome": "refreshed", ...tenant }, 2],
      [{ "engage_voice.renewal.outcome": "failed", "error.type": "unexpected_response", ...tenant }, 1],
    ]);
    const calls = pointsOf(metrics, "engage_voice.token.call.duration") as DataPoint<Histogram>[];
    expect(calls.map((p) => [p.attributes, p.value.count, p.value.sum])).toEqual([
      [{ "engage_voice.token.operation": "exchange", ...tenant }, 1, LATENCY_MS / 1000],
      [{ "engage_voice.token.operation": "refresh", ...tenant }, 2, (2 * LATENCY_MS) / 1000],
      [
        { "engage_voice.token.operation": "refresh", ...tenant, "error.type": "unexpected_response" },
        1,
        // The fake hosts answer a fault after half the latency.
        LATENCY_MS / 2 / 1000,
      ],
    ]);
    const waits = pointsOf(metrics, "engage_voice.token.wait.duration") as DataPoint<Histogram>[];
    expect(waits.map((p) => [p.attributes, p.value.count])).toEqual([[tenant, 4]]);
    expect(waits[0]?.value.buckets.boundaries).toEqual(SEMCONV_BUCKETS);
  });
});

describe("openTelemetry(): the tenant attribute", () => {
  /** A pool of two tenants on the sandbox, observed. */
  async function pool(options: OpenTelemetryOptions) {
    const clock = fakeClock();
    const apps = createSandboxApps({ tenants: 2, now: () => clock.now() });
    const otel = telemetry({ clock, ...options });
    const pool = createTenantPool({
      rcAccessToken: (tenant) => apps.tenant(Number(tenant.slice(1))).parentTokens[0]?.token as string,
      manager: {
        baseUrl: "https://engage.example.test",
        fetch: async (r) => apps.main.fetch(r),
        clock,
        logger: {},
        observer: otel.observer,
      },
    });
    for (const tenant of ["t1", "t2"]) {
      await pool.get(tenant).client().GET(ACCOUNTS);
    }
    await pool.close();
    return { spans: otel.spans(), metrics: await otel.metrics() };
  }

  it("tells tenants apart in a pool", async () => {
    const { spans, metrics } = await pool({});
    expect(
      named(spans, "engage_voice.token.exchange").map((s) => s.attributes["engage_voice.tenant"]),
    ).toEqual(["t1", "t2"]);
    expect(
      pointsOf(metrics, "engage_voice.token.renewals").map((p) => p.attributes["engage_voice.tenant"]),
    ).toEqual(["t1", "t2"]);
  });

  it("is left off every span and metric with tenantAttribute: false", async () => {
    const { spans, metrics } = await pool({ tenantAttribute: false });
    expect(named(spans, "engage_voice.token.exchange")).toHaveLength(2);
    const attributes = [
      ...spans.map((s) => s.attributes),
      ...metrics.flatMap((m) => m.dataPoints.map((p) => p.attributes)),
    ];
    expect(attributes.filter((a) => "engage_voice.tenant" in a)).toEqual([]);
    expect(pointsOf(metrics, "engage_voice.token.renewals").map((p) => [p.attributes, p.value])).toEqual([
      [{ "engage_voice.renewal.outcome": "exchanged" }, 2],
    ]);
  });
});

describe("openTelemetry(): secrets", () => {
  it("puts no token, password, API token, query or concrete path in any name, attribute, event or metric", async () => {
    const { auth, otel, clock, server } = observed();
    await auth.client().GET(ACCOUNTS);
    clock.advance(300_000);
    server.fail("refresh", { status: 401 });
    server.fail("accounts", "network");
    await expect(
      auth.fetch(`https://engage.example.test${ACCOUNTS}?token=${server.parentToken}`, { maxRetries: 0 }),
    ).rejects.toThrow();
    const tokens = await permanentTokensOn(server, clock, otel.observer);
    const created = await tokens.create();
    await tokens.delete(created);
    await auth.fetch(`https://engage.example.test/voice/api/v1/admin/token/${created}`).catch(() => {});

    const texts: string[] = [];
    const collect = (attributes: object | undefined) => {
      for (const value of Object.values(attributes ?? {})) {
        texts.push(String(value));
      }
    };
    for (const span of otel.spans()) {
      texts.push(span.name, span.status.message ?? "");
      collect(span.attributes);
      for (const event of span.events) {
        texts.push(event.name);
        collect(event.attributes);
      }
    }
    for (const metric of await otel.metrics()) {
      texts.push(metric.descriptor.name);
      for (const point of metric.dataPoints) {
        collect(point.attributes);
      }
    }
    const secrets = [...server.secrets, created, LEGACY_USER.password, LEGACY_USER.username];
    expect(secrets.length).toBeGreaterThan(6);
    for (const text of texts) {
      for (const secret of secrets) {
        expect(text, "an attribute holds a secret").not.toContain(secret);
      }
      expect(text).not.toMatch(/\?|\/admin\/token\/[^{]/);
    }
    // The scenario reached every kind of span.
    expect(new Set(otel.spans().map((s) => s.name.replace(/ .*/, "")))).toEqual(
      new Set([
        "POST",
        "GET",
        "DELETE",
        "engage_voice.token.exchange",
        "engage_voice.token.refresh",
        "engage_voice.token.wait",
        "engage_voice.token.legacy_login",
      ]),
    );
  });
});

describe("openTelemetry(): set-up", () => {
  it("works on the global providers, which do nothing until an SDK registers them", async () => {
    const hosts = hostsFor();
    const { auth } = hosts.managerOn(undefined, { observer: openTelemetry() });
    const { response } = await auth.client().GET(ACCOUNTS);
    expect(response.status).toBe(200);
  });

  it("is refused by a manager when it is not an observer, naming the option", () => {
    expect(() => createTokenManager({ rcAccessToken: "t", observer: { call: 1 } as never })).toThrow(
      /observer must be an object with optional call, tokenCall, wait and event/,
    );
  });

  it("the README names every span, attribute and metric the tests saw", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    expect(seen.size).toBeGreaterThan(15);
    expect([...seen].filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });
});
