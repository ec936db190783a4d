import { MAX_ANSWER_BYTES } from "@engage-voice/client";
import { EngageVoiceAuthError } from "./errors.js";
import type { FetchLike } from "./types.js";

// The client's, which caps the error bodies it reads by the same rule: a token answer is a few kB,
// an API token list a few more, and anything far past it is not an answer.
export { MAX_ANSWER_BYTES };

/** An answer larger than this package reads: a misbehaving or hostile server. */
export class ResponseTooLargeError extends EngageVoiceAuthError {
  declare readonly code: "response_too_large";
  override readonly name = "ResponseTooLargeError";
  declare readonly maxBytes: number;
  constructor(what: string, maxBytes: number, status: number | undefined) {
    super("response_too_large", `${what} answered more than ${maxBytes} bytes: not read further`, { status });
    this.maxBytes = maxBytes;
  }
}

/** A timer that keeps no process alive. */
export function unrefTimer(run: () => void, ms: number) {
  const timer = setTimeout(run, ms) as { unref?: () => void };
  timer.unref?.();
  return timer as Parameters<typeof clearTimeout>[0];
}

/** Where a body's buffer starts: room for a token answer, doubled as the body needs. */
export const FIRST_BUFFER_BYTES = 4_096;

/**
 * Up to `maxBytes` of a body, and whether that was all of it. Stops reading (and cancels) past it, or
 * once `stop` settles: a body that is no longer read must not keep filling a buffer.
 */
async function readAtMost(body: ReadableStream<Uint8Array>, maxBytes: number, stop?: Promise<unknown>) {
  const reader = body.getReader();
  const cancel = () => reader.cancel().catch(() => {});
  stop?.then(cancel, cancel);
  // Grows with the answer (a token answer is about a kilobyte), up to the bound: a buffer of the bound
  // for each answer cost thousands of tenants starting at once gigabytes and their deadlines.
  let bytes = new Uint8Array(Math.min(maxBytes, FIRST_BUFFER_BYTES));
  let length = 0;
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) {
        return { bytes: bytes.subarray(0, length), complete: true };
      }
      const room = Math.min(chunk.value.byteLength, maxBytes - length);
      if (length + room > bytes.byteLength) {
        const grown = new Uint8Array(Math.min(maxBytes, Math.max(length + room, bytes.byteLength * 2)));
        grown.set(bytes.subarray(0, length));
        bytes = grown;
      }
      bytes.set(chunk.value.subarray(0, room), length);
      length += room;
      if (room < chunk.value.byteLength || length === maxBytes) {
        return { bytes: bytes.subarray(0, length), complete: false };
      }
    }
  } finally {
    cancel();
  }
}

/**
 * A fetch for the answers this package reads itself (token calls, API token calls): it reads the whole
 * body, at most `maxBytes` of it, so that a hostile answer cannot fill memory. The deadline is the
 * client's call policy, which aborts the call's signal (given beside the request); the read stops with it.
 */
export function limitedFetch(fetch: FetchLike, maxBytes = MAX_ANSWER_BYTES): FetchLike {
  return async (input, init) => {
    const response = await fetch(input, init);
    // An opaque redirect (status 0) cannot be rebuilt, and has no body to read.
    if (!response.body || response.status < 200) {
      return response;
    }
    // An abort errors the body, which ends this read; a listener on the call's signal would keep
    // the request (and a password in its query) alive for as long as the signal lives.
    const { bytes, complete } = await readAtMost(response.body, maxBytes + 1);
    if (!complete || bytes.byteLength > maxBytes) {
      throw new ResponseTooLargeError("The server", maxBytes, response.status);
    }
    const { status, statusText, headers } = response;
    return new Response(bytes.byteLength ? bytes : null, { status, statusText, headers });
  };
}

/**
 * Up to `maxBytes` of a body as text, without waiting past `timeoutMs`: enough to recognise a short
 * message such as `Jwt is expired` in a body that may never end. Reads a copy; the caller's body is
 * left as it was.
 */
export async function readPrefix(response: Response, maxBytes: number, timeoutMs: number): Promise<string> {
  const body = response.clone().body;
  if (!body) {
    return "";
  }
  let timer: Parameters<typeof clearTimeout>[0];
  // The deadline yields once more before it ends the read: a process that was busy past it runs its
  // timers before the answers that came meanwhile, and a body that did arrive must still be read.
  const timeout = new Promise<undefined>((resolve) => {
    timer = unrefTimer(() => {
      timer = unrefTimer(() => resolve(undefined), 0);
    }, timeoutMs);
  });
  try {
    const read = await readAtMost(body, maxBytes, timeout).catch(() => undefined);
    return read ? new TextDecoder().decode(read.bytes) : "";
  } finally {
    clearTimeout(timer);
  }
}
