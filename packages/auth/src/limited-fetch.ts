import { EngageVoiceAuthError } from "./errors.js";
import type { FetchLike } from "./types.js";

/** A token answer is a few kB; an API token list a few more. Anything far past it is not an answer. */
export const MAX_ANSWER_BYTES = 256 * 1024;

const timeoutError = () => new DOMException("The operation timed out", "TimeoutError");

/** An answer larger than this package reads: a misbehaving or hostile server. */
export class ResponseTooLargeError extends EngageVoiceAuthError {
  declare readonly code: "response_too_large";
  override readonly name = "ResponseTooLargeError";
  readonly maxBytes: number;
  constructor(what: string, maxBytes: number, status: number | undefined) {
    super("response_too_large", `${what} answered more than ${maxBytes} bytes: not read further`, { status });
    this.maxBytes = maxBytes;
  }
}

function unrefTimer(run: () => void, ms: number) {
  const timer = setTimeout(run, ms) as { unref?: () => void };
  timer.unref?.();
  return timer as Parameters<typeof clearTimeout>[0];
}

/**
 * A fetch for the answers this package reads itself (token calls, API token calls). One timer covers
 * the headers and the whole body; the timer, not the request's signal, is what holds the deadline,
 * because a signal that only the copied Request refers to can be garbage collected with its timer
 * (an `AbortSignal.timeout()` then never fires). The body is cut off past `maxBytes`.
 */
export function limitedFetch(
  fetch: FetchLike,
  { timeoutMs, maxBytes = MAX_ANSWER_BYTES }: { timeoutMs: number; maxBytes?: number },
): FetchLike {
  return (input) =>
    new Promise<Response>((resolve, reject) => {
      const controller = new AbortController();
      let fail = (error: unknown) => {
        controller.abort(error);
        reject(error);
      };
      const timer = unrefTimer(() => fail(timeoutError()), timeoutMs);
      const done = () => clearTimeout(timer);
      fetch(new Request(input, { signal: controller.signal })).then(
        (response) => {
          const length = Number(response.headers.get("Content-Length"));
          if (length > maxBytes) {
            done();
            response.body?.cancel().catch(() => {});
            return reject(new ResponseTooLargeError("The server", maxBytes, response.status));
          }
          if (!response.body || response.status < 200 || response.status > 599) {
            done();
            return resolve(response);
          }
          const reader = response.body.getReader();
          let read = 0;
          const body = new ReadableStream<Uint8Array>({
            start(stream) {
              // From here on a timeout errors the body that the caller is reading.
              fail = (error) => {
                controller.abort(error);
                stream.error(error);
                reader.cancel(error).catch(() => {});
              };
            },
            async pull(stream) {
              try {
                const chunk = await reader.read();
                if (chunk.done) {
                  done();
                  return stream.close();
                }
                read += chunk.value.byteLength;
                if (read > maxBytes) {
                  done();
                  const error = new ResponseTooLargeError("The server", maxBytes, response.status);
                  stream.error(error);
                  return void reader.cancel(error).catch(() => {});
                }
                stream.enqueue(chunk.value);
              } catch (error) {
                done();
                stream.error(error);
              }
            },
            cancel(reason) {
              done();
              return reader.cancel(reason);
            },
          });
          resolve(
            new Response(body, {
              status: response.status,
              statusText: response.statusText,
              headers: response.headers,
            }),
          );
        },
        (error) => {
          done();
          reject(error);
        },
      );
    });
}

/**
 * Up to `maxBytes` of a body as text, without waiting past `timeoutMs`: enough to recognise a short
 * message such as `Jwt is expired` in a body that may never end. Reads a copy; the caller's body is
 * left as it was.
 */
export async function readPrefix(response: Response, maxBytes: number, timeoutMs: number): Promise<string> {
  const reader = response.clone().body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let length = 0;
  let timer: Parameters<typeof clearTimeout>[0] | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = unrefTimer(() => resolve("timeout"), timeoutMs);
  });
  try {
    while (length < maxBytes) {
      const chunk = await Promise.race([reader.read(), timeout]);
      if (chunk === "timeout" || chunk.done) break;
      chunks.push(chunk.value);
      length += chunk.value.byteLength;
    }
  } catch {
    // A body that fails while being read says nothing recognisable.
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes.subarray(0, maxBytes));
}
