// What both hosts share: Date from the sandbox clock, CORS for loopback pages, injected faults, the
// body limit, and JSON errors for unknown paths, wrong methods and anything unexpected.

import { type Context, Hono } from "hono";
import { cors } from "hono/cors";
import { addControlRoutes, CONTROL_PATH, createControl } from "./control.js";
import { apiError, ErrorCode, requestPath } from "./errors.js";
import { parseFault } from "./faults.js";
import { FAULTS_PATH, HOST_TITLES, type HostName } from "./paths.js";
import { retryAfterSeconds } from "./rate-limit.js";
import { mediaType, readLimited } from "./request.js";
import type { SandboxState } from "./state.js";

/** A fault is a few fields; a body past this is refused while it is read. */
const MAX_FAULT_BYTES = 4096;

/**
 * A page's origin on this machine, over `http:` or `https:` (a local dev server may use a
 * self-signed certificate). Browsers send an origin serialized (lower case, no default port, no
 * path), so a pattern decides without parsing: no `URL` made, and nothing thrown, per request.
 */
const LOOPBACK_ORIGIN = /^https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/;

function isLoopbackOrigin(origin: string): boolean {
  return LOOPBACK_ORIGIN.test(origin);
}

const loopbackOrigin = (origin: string): string | null => (isLoopbackOrigin(origin) ? origin : null);

const FOREIGN_ORIGIN =
  "This sandbox answers pages on 127.0.0.1, localhost or [::1] only: a request from a page on another site (its Origin header) is refused";

/** `Date` text of a time, made once per second of the clock rather than once per answer. */
function httpDateOf(): (ms: number) => string {
  let second = Number.NaN;
  let text = "";
  return (ms) => {
    const current = Math.floor(ms / 1000);
    if (current !== second) {
      second = current;
      text = new Date(current * 1000).toUTCString();
    }
    return text;
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function createHost(state: SandboxState, name: HostName): Hono {
  const app = new Hono();
  const now = () => state.now();

  app.onError((error, c) => {
    // The stack's frames only: its first line repeats the message, which may quote the request.
    const frames = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
    state.options.logger?.error?.(
      [`sandbox: unexpected ${error.name} on ${c.req.method} ${requestPath(c)}`, ...frames].join("\n"),
    );
    return apiError(c, 500, ErrorCode.internal, "The sandbox failed unexpectedly", now());
  });
  app.notFound((c) => apiError(c, 404, ErrorCode.notFound, `No such path on ${HOST_TITLES[name]}`, now()));

  const httpDate = httpDateOf();
  app.use("*", async (c, next) => {
    await next();
    // Clients estimate clock skew from Date, so it follows the sandbox clock, injected or not.
    c.res.headers.set("Date", httpDate(now()));
  });
  app.use("*", async (c, next) => {
    // A page on any other site can send a form POST here (no preflight): it is refused before it
    // can take a queued fault or a place in a rate-limit window. A request without Origin is not
    // from a page, or from one of the same origin, which the Host check holds to loopback.
    const origin = c.req.header("origin");
    if (origin === undefined || isLoopbackOrigin(origin)) {
      return next();
    }
    return apiError(c, 403, ErrorCode.accessDenied, FOREIGN_ORIGIN, now());
  });
  const corsHeaders = cors({
    origin: loopbackOrigin,
    allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
    allowHeaders: ["Authorization", "X-Auth-Token", "Content-Type", "Prefer"],
    exposeHeaders: ["Retry-After", "Date"],
    maxAge: 600,
  });
  app.use("*", async (c, next) => {
    if (c.req.header("origin") !== undefined) {
      return corsHeaders(c, next);
    }
    // Not from a page: no CORS headers to add (Hono's middleware would build a placeholder answer
    // per request to hold them), but a cache must still tell this answer from a page's. Set before
    // the handler runs, among the headers its answer starts with: set on the answer after it, it
    // made Hono copy the answer, and a copy's body is a stream, which @hono/node-server writes by
    // reading it rather than at once.
    c.header("Vary", "Origin", { append: true });
    return next();
  });
  app.use("*", async (c, next) => {
    if (c.req.method === "OPTIONS" || c.req.path === FAULTS_PATH || c.req.path === CONTROL_PATH) {
      return next();
    }
    const fault = state.faults.take(["delay", "status", "rate-limit"], c.req.method, c.req.path);
    if (fault?.kind === "delay") {
      await sleep(fault.ms);
    }
    if (fault?.kind === "status") {
      return apiError(
        c,
        fault.status as 500,
        ErrorCode.injectedFault,
        `Injected fault: status ${fault.status}`,
        now(),
      );
    }
    if (fault?.kind === "rate-limit") {
      const retryAfter = String(fault.retryAfterSeconds ?? retryAfterSeconds(1000));
      return apiError(c, 429, ErrorCode.rateLimit, "Too many requests, try again later", now(), {
        "Retry-After": retryAfter,
      });
    }
    return next();
  });
  app.use("*", async (c, next) => {
    // A declared length is refused before reading; bodies without one are capped where read (readForm).
    const length = Number(c.req.header("content-length") ?? 0);
    if (length > state.options.maxBodyBytes) {
      return tooLarge(c, state);
    }
    return next();
  });

  if (state.options.controlEnabled) {
    addControlRoutes(app, state, createControl(state));
  }
  if (state.faults.enabled) {
    app.post(FAULTS_PATH, async (c) => {
      if (mediaType(c) !== "application/json") {
        return apiError(c, 400, ErrorCode.validation, "A fault is sent as application/json", now());
      }
      // Read with a cap whatever the framing: a chunked body has no Content-Length to refuse early.
      let body: Uint8Array | undefined;
      try {
        body = await readLimited(c.req.raw.body, MAX_FAULT_BYTES);
      } catch {
        // An upload cut short is the client's doing: a 400 as the control route answers, not a 500.
        return apiError(c, 400, ErrorCode.validation, "The fault could not be read", now());
      }
      if (!body) {
        return apiError(
          c,
          413,
          ErrorCode.payloadTooLarge,
          `A fault is at most ${MAX_FAULT_BYTES} bytes`,
          now(),
        );
      }
      try {
        state.faults.next(parseFault(JSON.parse(new TextDecoder().decode(body))));
      } catch (error) {
        const message = error instanceof TypeError ? error.message : "The fault is not valid JSON";
        return apiError(c, 400, ErrorCode.validation, message, now());
      }
      return c.json({ pending: state.faults.pending });
    });
    app.delete(FAULTS_PATH, (c) => {
      state.faults.clear();
      return c.json({ pending: 0 });
    });
  }
  return app;
}

/** Answers 405 with `Allow` for the methods a path does not take. */
export function methodNotAllowed(c: Context, state: SandboxState, allow: string): Response {
  return apiError(
    c,
    405,
    ErrorCode.methodNotAllowed,
    `${c.req.method} is not allowed here; use ${allow}`,
    state.now(),
    { Allow: allow },
  );
}

/** Answers 404 for a path of the other host, saying where it lives. */
export function otherHost(c: Context, state: SandboxState, served: HostName): Response {
  return apiError(
    c,
    404,
    ErrorCode.notFound,
    `${requestPath(c)} is served by ${HOST_TITLES[served]}, not by this one`,
    state.now(),
  );
}

export function tooLarge(c: Context, state: SandboxState): Response {
  return apiError(
    c,
    413,
    ErrorCode.payloadTooLarge,
    `The request body is larger than ${state.options.maxBodyBytes} bytes`,
    state.now(),
  );
}
