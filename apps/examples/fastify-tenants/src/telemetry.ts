// OpenTelemetry's SDK for the traces and metrics of `openTelemetry()` (src/server.ts), preloaded:
// `node --import ./src/telemetry.ts src/server.ts`. The demo writes each finished span (in batches),
// then the metrics (each minute and at exit), as JSON lines to $OTEL_SPANS_FILE; yours would give
// the providers your backend's exporters (OTLP) instead.
import { appendFileSync } from "node:fs";
import { context, metrics, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";

const file = process.env.OTEL_SPANS_FILE ?? "spans.jsonl";
const write = (lines: object[]) =>
  appendFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
const success = { code: 0 } as const; // ExportResultCode.SUCCESS

const spanLines: SpanExporter = {
  export(spans, resultCallback) {
    write(
      spans.map((span) => ({
        span: span.name,
        id: span.spanContext().spanId,
        parent: span.parentSpanContext?.spanId,
        kind: SpanKind[span.kind],
        attributes: span.attributes,
        events: span.events.map(({ name, attributes }) => ({ name, attributes })),
      })),
    );
    resultCallback(success);
  },
  async shutdown() {},
};

const metricLines: PushMetricExporter = {
  export({ scopeMetrics }, resultCallback) {
    write(
      scopeMetrics.flatMap((scope) =>
        scope.metrics.map(({ descriptor, dataPoints }) => ({
          metric: descriptor.name,
          unit: descriptor.unit,
          // A counter's value, or a histogram's count and sum (its buckets left out here).
          points: dataPoints.map(({ attributes, value }) => ({
            attributes,
            value: typeof value === "number" ? value : { count: value.count, sum: value.sum },
          })),
        })),
      ),
    );
    resultCallback(success);
  },
  async forceFlush() {},
  async shutdown() {},
};

// The context manager nests the spans: a token call's HTTP request is a child of its token call.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const tracerProvider = new TracerProvider({
  spanProcessors: [new BatchSpanProcessor({ exporter: spanLines })],
});
trace.setGlobalTracerProvider(tracerProvider);
const meterProvider = new MeterProvider({
  readers: [new PeriodicExportingMetricReader({ exporter: metricLines })],
});
metrics.setGlobalMeterProvider(meterProvider);

// Last, once the service has closed on SIGTERM or SIGINT (Fastify, then the pool, then Redis) and
// nothing is left to run: the spans still batched and the metrics are written, then Node exits.
process.once("beforeExit", async () => {
  await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
});
