import { Deadline } from "./deadline.js";
import { retryAfterMs } from "./retry-after.js";

/**
 * What every API call gets unless its client or the call itself says otherwise. `timeoutMs` is one
 * deadline over the whole call: every try, the waits between them, the headers and the body.
 */
export const callDefaults = {
  timeoutMs: 30_000,
  maxRetries: 2,
  /** A `Retry-After` longer than this is not waited for: the answer goes to the caller at once. */
  maxRetryWaitMs: 60_000,
  /**
   * A `Retry-After` is waited for in full and then up to this much more, at random: the callers a
   * host told to come back in a second do not all come back in the same millisecond.
   */
  retryAfterJitterMs: 1_000,
  /** Backoff without `Retry-After`: between half and all of `firstRetryMs × 2^retry`, at most `maxRetryDelayMs`. */
  firstRetryMs: 500,
  maxRetryDelayMs: 8_000,
} as const;

/** Answers worth another try of an idempotent call: the server says it may work later. */
export const retriedStatuses: readonly number[] = [408, 429, 500, 502, 503, 504];

/**
 * Methods tried again. DELETE is idempotent by RFC 9110: the one this API has (a permanent token)
 * leaves the same state however often it lands. POST never is: a token call or a created API token
 * must not happen twice.
 */
export const idempotentMethods: readonly string[] = ["GET", "HEAD", "OPTIONS", "DELETE"];

/** Per client or per call (`client.GET(path, { timeoutMs, maxRetries })`). */
export interface CallOptions {
  /** The deadline of a call, over every try and wait, headers and body. Default 30 000 ms. */
  timeoutMs?: number | undefined;
  /** Further tries of an idempotent call after a 408, 429, 5xx or no answer. Default 2; 0 turns retries off. */
  maxRetries?: number | undefined;
}

/** Where log lines go. Every method is optional; lines never hold a secret. */
export interface Logger {
  debug?(message: string): void;
  info?(message: string): void;
  warn?(message: string): void;
  error?(message: string): void;
}

/** A wait that ends early, with the signal's reason, when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * A call as an observer is told of it when it starts: never a concrete path, a query string, a header
 * or a body, which may hold an id, a token or a password.
 */
export interface ObservedCall {
  /** `GET`, `POST`... */
  method: string;
  /**
   * The document's path template (`/voice/api/v1/admin/token/{apiToken}`), however the path was
   * written; for a path the document does not have, its words with every other segment `{…}`
   * (`printablePath`).
   */
  template: string;
  /** Where it goes: `https://engage.ringcentral.com`. */
  origin: string;
}

/** What an observer hears of a call while it runs. */
export interface CallTrace {
  /**
   * A try failed and another follows after `waitMs`: the try's status, or, when it got no answer,
   * its error. `retry` counts from 1.
   */
  retrying(retry: { retry: number; status: number | undefined; error: unknown; waitMs: number }): void;
  /** The status of the answer the call ends with, a failed one too. A call that rejects is not told here. */
  answered(status: number): void;
}

/**
 * Watches every call of a client (`createClient({ observer })`), for traces and metrics, such as
 * `@engage-voice/auth/opentelemetry`'s. `call` makes the call by calling `run` (in a context of its
 * own, such as a span's, if it keeps one) and returns what `run` returns, or rejects with its error.
 */
export interface CallObserver {
  call<R>(call: ObservedCall, run: (trace: CallTrace) => Promise<R>): Promise<R>;
}

export interface CallPolicy {
  timeoutMs: number;
  maxRetries: number;
  maxRetryWaitMs: number;
  logger: Logger;
  now: () => number;
  sleep: Sleep;
  random: () => number;
  observer?: CallObserver | undefined;
}

/** A call that did not end within its deadline. Names the operation and the deadline, never a value. */
export class RequestTimeoutError extends Error {
  override readonly name = "RequestTimeoutError";
  readonly code = "request_timeout";
  readonly timeoutMs: number;
  constructor(what: string, timeoutMs: number) {
    super(
      `${what} did not finish within ${timeoutMs} ms: give it more time with timeoutMs, or check that the host answers`,
    );
    this.timeoutMs = timeoutMs;
  }
}

/**
 * Waits `ms` on a timer that keeps the process alive, since a caller awaits it; an abort ends the
 * wait at once. (A timer for background work must not hold a process open; this one is not that.)
 */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal?.addEventListener("abort", stop, { once: true });
  });

/** Exponential backoff with jitter, never shorter than a `Retry-After` the server gave. */
export function backoffDelay(
  retry: number,
  random: () => number,
  retryAfter = 0,
  { firstMs, maxMs }: { firstMs: number; maxMs: number } = {
    firstMs: callDefaults.firstRetryMs,
    maxMs: callDefaults.maxRetryDelayMs,
  },
): number {
  const cap = Math.min(firstMs * 2 ** retry, maxMs);
  return Math.max(cap / 2 + (random() * cap) / 2, retryAfter);
}

/**
 * `console` for warnings and errors; with `ENGAGE_VOICE_LOG=debug` in the environment (where there is
 * one), debug lines too. Everything goes to stderr, so a program's own output stays clean.
 */
export function defaultLogger(): Logger {
  let level: string | undefined;
  try {
    level = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
      ?.ENGAGE_VOICE_LOG;
  } catch {
    // Deno without --allow-env throws on reading the environment: no debug lines, no crash.
  }
  return {
    // biome-ignore lint/suspicious/noConsole: the documented default logger
    ...(level === "debug" ? { debug: (message: string) => console.error(message) } : {}),
    // biome-ignore lint/suspicious/noConsole: the documented default logger
    warn: (message) => console.warn(message),
    // biome-ignore lint/suspicious/noConsole: the documented default logger
    error: (message) => console.error(message),
  };
}

/** What ends the calls whose body a caller still reads, by the caller's signal: one listener a signal. */
interface Readers {
  aborts: Set<(reason: unknown) => void>;
  onAbort: () => void;
}
const readers = new WeakMap<AbortSignal, Readers>();

/**
 * Has `callerSignal` end a call after it returned, while its caller reads the body: the call's own
 * signal, which fetch follows, then errors the body as fetch does on an abort. However many such calls
 * a signal has, it holds one listener (a client's or a server's long-lived signal would otherwise
 * pass the runtime's listener limit); the returned function lets go of this call, and of the
 * listener with the last one.
 */
function followWhileReading(callerSignal: AbortSignal, abort: (reason: unknown) => void): () => void {
  let entry = readers.get(callerSignal);
  if (!entry) {
    const aborts = new Set<(reason: unknown) => void>();
    const onAbort = () => {
      readers.delete(callerSignal);
      for (const each of aborts) {
        each(callerSignal.reason);
      }
    };
    entry = { aborts, onAbort };
    readers.set(callerSignal, entry);
    callerSignal.addEventListener("abort", onAbort, { once: true });
  }
  const { aborts, onAbort } = entry;
  aborts.add(abort);
  return () => {
    if (aborts.delete(abort) && aborts.size === 0) {
      callerSignal.removeEventListener("abort", onAbort);
      readers.delete(callerSignal);
    }
  };
}

/** The debug line of each try of a call: `GET /voice/api/v1/admin/users 200 in 41 ms`. */
export const tryLine = (what: string, status: number | undefined, ms: number): string =>
  `${what} ${status ?? "got no answer"} in ${Math.round(ms)} ms`;

/**
 * The shape of {@link tryLine}, its first group the call (`GET /path`): for a reader that writes a line
 * of its own for each try (the CLI's fetch) and leaves this one out.
 */
export const TRY_LINE = /^([A-Z]+ \S+) (?:\d{3}|got no answer) in \d+ ms$/;

/** A fetch failure with no answer: the Fetch standard rejects with a plain TypeError. */
const noAnswer = (error: unknown) => (error as Error | null)?.name === "TypeError";

/**
 * Runs one call under its policy: one deadline, the caller's abort, and further tries of an
 * idempotent call after a 408, 429, 5xx or no answer, waiting `Retry-After` (when not longer than
 * `maxRetryWaitMs`) or a backoff. `send` makes one try with the signal it is given; `keep` is true
 * when the caller reads the body after this returns, so the deadline stays armed for it. `call` is
 * what the policy's observer, if it has one, is told of the call.
 */
export function runCall<R extends { response: Response }>(
  call: ObservedCall,
  policy: CallPolicy,
  callerSignal: AbortSignal | null | undefined,
  send: (signal: AbortSignal) => Promise<R>,
  keep = false,
): Promise<R> {
  const { observer } = policy;
  return observer
    ? observer.call(call, (trace) => tries(call, policy, callerSignal, send, keep, trace))
    : tries(call, policy, callerSignal, send, keep, undefined);
}

/** The tries of {@link runCall}, told to `trace` when an observer watches. */
async function tries<R extends { response: Response }>(
  call: ObservedCall,
  policy: CallPolicy,
  callerSignal: AbortSignal | null | undefined,
  send: (signal: AbortSignal) => Promise<R>,
  keep: boolean,
  trace: CallTrace | undefined,
): Promise<R> {
  callerSignal?.throwIfAborted();
  const { logger, now } = policy;
  const { method } = call;
  // Printed by retry warnings, debug lines and the timeout's message: the template, never a value.
  const what = `${method} ${call.template}`;
  const controller = new AbortController();
  const { signal } = controller;
  // The current wait's reject. Only this function aborts the controller, so it ends the wait itself
  // rather than listening to its own signal (a listener costs more than the rest of this function).
  let fail: ((reason: unknown) => void) | undefined;
  const abort = (reason: unknown) => {
    controller.abort(reason);
    fail?.(signal.reason);
  };
  const follow = () => abort(callerSignal?.reason);
  callerSignal?.addEventListener("abort", follow, { once: true });
  const started = now();
  // Held by its timer, so it fires even when nothing else refers to the signal; and the timer keeps
  // the process alive while the call is awaited: a try in flight does not always (Node 20's fetch
  // leaves a connection reset before its answer pending with nothing to wait on, and the process
  // would end with the caller's work undone).
  let stopFollowing: (() => void) | undefined;
  const deadline = new Deadline(policy.timeoutMs, () => {
    stopFollowing?.();
    abort(new RequestTimeoutError(what, policy.timeoutMs));
  });
  let guardingBody = false;
  // Nothing of the call hangs on its signal, which outlives it: undici's Request holds the signal it
  // follows until a finaliser runs, some collections later, and a listener of ours would hold the
  // answer and its body that long too (3 KB a call, measured), out of the young generation.
  const untilAborted = <T>(wait: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      signal.throwIfAborted();
      fail = reject;
      wait().then(resolve, reject);
    });
  try {
    for (let retry = 0; ; retry++) {
      let result: R | undefined;
      let failure: unknown;
      try {
        // Ended by the abort too: a fetch that ignores its signal still ends at the deadline.
        result = await untilAborted(() => send(signal));
      } catch (error) {
        if (signal.aborted) {
          throw signal.reason;
        }
        failure = error;
      }
      const status = result?.response.status;
      logger.debug?.(tryLine(what, status, now() - started));
      const transient = result ? retriedStatuses.includes(status as number) : noAnswer(failure);
      const retryAfter = result && transient ? retryAfterMs(result.response, now()) : undefined;
      const enough = retry >= policy.maxRetries || !idempotentMethods.includes(method);
      if (!transient || enough || (retryAfter ?? 0) > policy.maxRetryWaitMs) {
        if (result) {
          guardingBody = keep;
          trace?.answered(result.response.status);
          return result;
        }
        throw failure;
      }
      const wait = backoffDelay(
        retry,
        policy.random,
        // Whole milliseconds, as timers and injected clocks take them; never below the server's wait.
        retryAfter === undefined
          ? 0
          : retryAfter + Math.ceil(policy.random() * callDefaults.retryAfterJitterMs),
      );
      // A wait that would end past the deadline is not worth starting: the caller hears now.
      if (now() - started + wait >= policy.timeoutMs) {
        if (result) {
          trace?.answered(result.response.status);
          return result;
        }
        throw failure;
      }
      trace?.retrying({ retry: retry + 1, status, error: failure, waitMs: wait });
      logger.warn?.(
        `${what} ${status ? `answered ${status}` : "got no answer"}: trying again in ${Math.round(wait)} ms (retry ${retry + 1} of ${policy.maxRetries})`,
      );
      // Ended by the abort too: an injected sleep may not listen to the signal.
      await untilAborted(() => policy.sleep(wait, signal));
    }
  } finally {
    // Still guarding a body the caller reads, but not holding a process whose work is done.
    deadline.end(guardingBody);
    fail = undefined;
    callerSignal?.removeEventListener("abort", follow);
    // The caller's abort ends the body it reads too, as it ends a plain fetch's, until the deadline
    // (which guards that body) lets go of the call.
    if (guardingBody && callerSignal) {
      stopFollowing = followWhileReading(callerSignal, abort);
    }
  }
}
