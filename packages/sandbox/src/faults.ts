// Fault injection for tests: a queue of one-shot faults, each consumed by the first request it matches.

export interface FaultMatch {
  /** Only requests to this exact path (e.g. `/api/auth/token/refresh`). */
  path?: string;
  /** Only requests with this method. */
  method?: string;
  /** How many matching requests the fault applies to. Default 1. */
  times?: number;
}

export type Fault = FaultMatch &
  (
    | { kind: "delay"; ms: number }
    | { kind: "status"; status: number }
    | { kind: "rate-limit"; retryAfterSeconds?: number }
    /** The next successful refresh rotates the token, then the connection is dropped: the answer is lost. */
    | { kind: "drop-after-refresh" }
  );

export interface SandboxFaults {
  /** Queues a fault. Throws a FaultError unless the sandbox was created with `faults: { enabled: true }`. */
  next(fault: Fault): void;
  /** Forgets every queued fault. */
  clear(): void;
  /** Faults still queued. */
  readonly pending: number;
}

/** Raised for a fault that cannot work, or when faults are disabled. */
export class FaultError extends TypeError {
  override readonly name = "FaultError";
  readonly code = "invalid_fault";
}

const MAX_DELAY_MS = 60_000;

function checkInteger(value: unknown, name: string, min: number, max: number): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new FaultError(`${name} must be an integer from ${min} to ${max}`);
  }
}

/** Validates a fault from a caller or a control request, returning a copy the queue owns. */
export function parseFault(input: unknown): Fault {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new FaultError("A fault must be an object with a kind");
  }
  const fault = input as Record<string, unknown>;
  const match: FaultMatch = {};
  if (fault.path !== undefined) {
    if (typeof fault.path !== "string" || !fault.path.startsWith("/")) {
      throw new FaultError("fault.path must be a path starting with /");
    }
    match.path = fault.path;
  }
  if (fault.method !== undefined) {
    if (typeof fault.method !== "string" || !/^[A-Za-z]+$/.test(fault.method)) {
      throw new FaultError("fault.method must be an HTTP method such as POST");
    }
    match.method = fault.method.toUpperCase();
  }
  if (fault.times !== undefined) {
    checkInteger(fault.times, "fault.times", 1, 10_000);
    match.times = fault.times as number;
  }
  switch (fault.kind) {
    case "delay":
      checkInteger(fault.ms, "fault.ms", 0, MAX_DELAY_MS);
      return { ...match, kind: "delay", ms: fault.ms as number };
    case "status":
      checkInteger(fault.status, "fault.status", 500, 599);
      return { ...match, kind: "status", status: fault.status as number };
    case "rate-limit":
      if (fault.retryAfterSeconds !== undefined) {
        checkInteger(fault.retryAfterSeconds, "fault.retryAfterSeconds", 0, 86_400);
      }
      return {
        ...match,
        kind: "rate-limit",
        ...(fault.retryAfterSeconds === undefined
          ? {}
          : { retryAfterSeconds: fault.retryAfterSeconds as number }),
      };
    case "drop-after-refresh":
      if (match.path !== undefined || match.method !== undefined) {
        throw new FaultError(
          "a drop-after-refresh fault always applies to the refresh; path and method are not allowed",
        );
      }
      return { ...match, kind: "drop-after-refresh" };
    default:
      throw new FaultError('fault.kind must be "delay", "status", "rate-limit" or "drop-after-refresh"');
  }
}

/** Faults waiting at once: a test queues a handful; thousands would slow every request's scan. */
export const MAX_PENDING_FAULTS = 100;

export class FaultQueue implements SandboxFaults {
  readonly #queue: { fault: Fault; remaining: number }[] = [];

  constructor(readonly enabled: boolean) {}

  next(fault: Fault): void {
    if (!this.enabled) {
      throw new FaultError("Fault injection is off: create the sandbox with faults: { enabled: true }");
    }
    const parsed = parseFault(fault);
    if (this.#queue.length >= MAX_PENDING_FAULTS) {
      throw new FaultError(
        `At most ${MAX_PENDING_FAULTS} faults wait at once: DELETE /__sandbox/faults clears them`,
      );
    }
    this.#queue.push({ fault: parsed, remaining: parsed.times ?? 1 });
  }

  clear(): void {
    this.#queue.length = 0;
  }

  get pending(): number {
    return this.#queue.length;
  }

  /** Consumes one use of the first queued fault of `kinds` that matches the request. */
  take(kinds: readonly Fault["kind"][], method: string, path: string): Fault | undefined {
    if (!this.enabled) {
      return undefined;
    }
    const index = this.#queue.findIndex(
      ({ fault }) =>
        kinds.includes(fault.kind) &&
        (fault.path === undefined || fault.path === path) &&
        (fault.method === undefined || fault.method === method),
    );
    const entry = this.#queue[index];
    if (!entry) {
      return undefined;
    }
    entry.remaining -= 1;
    if (entry.remaining === 0) {
      this.#queue.splice(index, 1);
    }
    return entry.fault;
  }
}
