// The pool's events, counted in memory and served as Prometheus text, with no dependency.
// OpenTelemetry's metrics come from `openTelemetry()` instead (src/server.ts, src/telemetry.ts).
import type { PoolEvent } from "@engage-voice/auth";

const counts = new Map<string, number>();

export function countEvent(event: PoolEvent): void {
  // `exchanged` more than once per tenant and deploy means sessions are being lost; alert on
  // `failed` with reauth_required, exchange_rejected or tenant_mismatch: those need a person.
  const code = event.type === "failed" ? `,code="${event.code}"` : "";
  const labels = `type="${event.type}",tenant="${event.tenant}"${code}`;
  counts.set(labels, (counts.get(labels) ?? 0) + 1);
}

export function metricsText(): string {
  const lines = [...counts].map(([labels, count]) => `engage_voice_events_total{${labels}} ${count}`);
  return ["# TYPE engage_voice_events_total counter", ...lines, ""].join("\n");
}
