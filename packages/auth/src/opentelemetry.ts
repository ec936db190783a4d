// `@engage-voice/auth/opentelemetry`: spans and metrics of the token manager and of the API calls it
// makes or authorises, on OpenTelemetry's API (`@opentelemetry/api`, an optional peer dependency).
// Its own entry, importing no code of the others: an app that does not import it bundles none of it,
// nor OpenTelemetry. It is an observer (observer.ts): the manager and the client tell it what runs,
// and it never sees a token, a password, a body or a concrete path, so no attribute can hold one.
import type { CallObserver, CallTrace, ObservedCall } from "@engage-voice/client";
import {
  type Attributes,
  context,
  type MeterProvider,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import type { TokenEvent } from "./manager-config.js";
import type { TokenObserver, TokenOperation } from "./observer.js";

export type { TokenObserver, TokenOperation } from "./observer.js";

export interface OpenTelemetryOptions {
  /** Where spans go; default the global one (`trace.getTracerProvider()`), which an SDK registers. */
  tracerProvider?: TracerProvider;
  /** Where metrics go; default the global one (`metrics.getMeterProvider()`). */
  meterProvider?: MeterProvider;
  /**
   * Whether token-call spans, wait spans and the token metrics carry `engage_voice.tenant`. Default
   * `true`; `false` for a service of so many tenants that a series each would cost too much (the
   * HTTP metric never carries it).
   */
  tenantAttribute?: boolean;
  /** Epoch milliseconds for span times and durations; default `performance`'s. For tests. */
  clock?: { now(): number };
}

/** The instrumentation scope: the name of the tracer and of the meter. */
const SCOPE = "@engage-voice/auth";

/**
 * The bucket boundaries, in seconds, that the HTTP semantic conventions advise for
 * `http.client.request.duration`; the token metrics take them too.
 */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** An `error.type` is a code or a class name: anything else a message could hold is `_OTHER`. */
const ERROR_TYPE = /^[A-Za-z][\w.]{0,63}$/;

/**
 * The `error.type` of what a call or a token call rejected with: its typed `code` (`request_timeout`,
 * `reauth_required`), else its class name (`TypeError`, `AbortError`), else `_OTHER`.
 */
function errorType(error: unknown): string {
  const { code, name } = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    name?: unknown;
  };
  if (typeof code === "string" && ERROR_TYPE.test(code)) {
    return code;
  }
  if (typeof name === "string" && name !== "Error" && ERROR_TYPE.test(name)) {
    return name;
  }
  return "_OTHER";
}

const performanceClock = { now: () => performance.timeOrigin + performance.now() };

/** `server.address`, `server.port` and `url.scheme` of an origin, parsed once per origin. */
function serverAttributes() {
  const known = new Map<string, Attributes>();
  return (origin: string): Attributes => {
    let found = known.get(origin);
    if (!found) {
      const url = new URL(origin);
      const scheme = url.protocol.slice(0, -1);
      found = {
        "server.address": url.hostname,
        "server.port": url.port === "" ? (scheme === "http" ? 80 : 443) : Number(url.port),
        "url.scheme": scheme,
      };
      known.set(origin, found);
    }
    return found;
  };
}

/**
 * An observer that makes OpenTelemetry spans and metrics of what a token manager does: give it as
 * `observer` to `createTokenManager`, to `createTenantPool({ manager })` (every tenant), to
 * `legacyLogin`, `apiTokens` or `createClient`.
 *
 * - Each API call: a CLIENT span `{method} {url.template}` with the stable HTTP client conventions
 *   (`http.request.method`, `server.address`, `server.port`, `url.scheme`, `url.template`,
 *   `http.response.status_code`, `error.type`, `http.request.resend_count`), an event
 *   `engage_voice.retry` per retry with its reason, and `http.client.request.duration`.
 * - Each token call: an INTERNAL span `engage_voice.token.{exchange|refresh|legacy_login}`, the parent
 *   of its HTTP request's span, and `engage_voice.token.call.duration`.
 * - Each wait for a renewal: an INTERNAL span `engage_voice.token.wait`, the parent of the token
 *   calls of the renewal it started, and `engage_voice.token.wait.duration`.
 * - Each renewal's outcome: `engage_voice.token.renewals`.
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): TokenObserver & CallObserver {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE);
  const clock = options.clock ?? performanceClock;
  const withTenant = options.tenantAttribute ?? true;
  const advice = { explicitBucketBoundaries: DURATION_BUCKETS };
  const requestDuration = meter.createHistogram("http.client.request.duration", {
    unit: "s",
    description: "Duration of HTTP client requests.",
    advice,
  });
  const tokenCallDuration = meter.createHistogram("engage_voice.token.call.duration", {
    unit: "s",
    description: "Duration of token calls: exchanges, refreshes and direct logins.",
    advice,
  });
  const waitDuration = meter.createHistogram("engage_voice.token.wait.duration", {
    unit: "s",
    description: "How long callers waited for a renewal.",
    advice,
  });
  const renewals = meter.createCounter("engage_voice.token.renewals", {
    unit: "{renewal}",
    description: "Renewals by outcome: exchanged, refreshed, or a failed attempt.",
  });
  const server = serverAttributes();
  const tenantOf = (tenant: string | undefined): Attributes =>
    withTenant && tenant !== undefined ? { "engage_voice.tenant": tenant } : {};

  /**
   * Runs `run` in the context of a new span, a child of the active one, and ends the span when it
   * settles; `finish` adds what the outcome says (the error it rejected with, if `failed`).
   */
  function inSpan<R>(
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    run: (span: Span) => Promise<R>,
    finish: (span: Span, seconds: number, failed: boolean, error: unknown) => void,
  ): Promise<R> {
    const startTime = clock.now();
    const parent = context.active();
    const span = tracer.startSpan(name, { kind, attributes, startTime }, parent);
    const end = (failed: boolean, error?: unknown) => {
      const endTime = clock.now();
      finish(span, (endTime - startTime) / 1000, failed, error);
      span.end(endTime);
    };
    // `run` is an async function of this package's: it rejects, it never throws.
    return context
      .with(trace.setSpan(parent, span), () => run(span))
      .then(
        (result) => {
          end(false);
          return result;
        },
        (error: unknown) => {
          end(true, error);
          throw error;
        },
      );
  }

  /** `error.type` on the span and its status an error, when there is one. */
  function failedWith(span: Span, type: string | undefined): Attributes {
    if (type === undefined) {
      return {};
    }
    span.setAttribute("error.type", type);
    span.setStatus({ code: SpanStatusCode.ERROR });
    return { "error.type": type };
  }

  /** A token call or a wait: an INTERNAL span and its duration histogram. */
  function measured<R>(
    name: string,
    attributes: Attributes,
    histogram: typeof waitDuration,
    run: () => Promise<R>,
  ): Promise<R> {
    return inSpan(name, SpanKind.INTERNAL, attributes, run, (span, seconds, failed, error) => {
      const outcome = failedWith(span, failed ? errorType(error) : undefined);
      histogram.record(seconds, { ...attributes, ...outcome });
    });
  }

  return {
    call<R>(call: ObservedCall, run: (trace: CallTrace) => Promise<R>): Promise<R> {
      const { method, template } = call;
      const { "url.scheme": scheme, ...where } = server(call.origin);
      const low = { "http.request.method": method, ...where, "url.template": template };
      let status: number | undefined;
      let resends = 0;
      return inSpan(
        `${method} ${template}`,
        SpanKind.CLIENT,
        { ...low, "url.scheme": scheme },
        (span) =>
          run({
            retrying(retry) {
              resends = retry.retry;
              span.addEvent(
                "engage_voice.retry",
                {
                  "http.request.resend_count": retry.retry,
                  ...(retry.status === undefined ? {} : { "http.response.status_code": retry.status }),
                  "error.type": retry.status === undefined ? errorType(retry.error) : String(retry.status),
                  "engage_voice.retry.delay": retry.waitMs / 1000,
                },
                clock.now(),
              );
            },
            answered(answer) {
              status = answer;
            },
          }),
        (span, seconds, failed, error) => {
          if (resends > 0) {
            span.setAttribute("http.request.resend_count", resends);
          }
          const answered = failed || status === undefined ? {} : { "http.response.status_code": status };
          span.setAttributes(answered);
          const type = failed
            ? errorType(error)
            : status !== undefined && status >= 400
              ? String(status)
              : undefined;
          requestDuration.record(seconds, { ...low, ...answered, ...failedWith(span, type) });
        },
      );
    },
    tokenCall<R>(call: { operation: TokenOperation; tenant: string | undefined }, run: () => Promise<R>) {
      const attributes = { "engage_voice.token.operation": call.operation, ...tenantOf(call.tenant) };
      return measured(`engage_voice.token.${call.operation}`, attributes, tokenCallDuration, run);
    },
    wait<R>(wait: { tenant: string }, run: () => Promise<R>) {
      return measured("engage_voice.token.wait", tenantOf(wait.tenant), waitDuration, run);
    },
    event(event: TokenEvent) {
      // Waits are measured as they run (wait, above); the event repeats them.
      if (event.type === "waited") {
        return;
      }
      renewals.add(1, {
        "engage_voice.renewal.outcome": event.type,
        ...(event.type === "failed" ? { "error.type": errorType({ code: event.code }) } : {}),
        ...tenantOf(event.tenant),
      });
    },
  };
}
