/** Raised when a success body cannot be read as its Content-Type says. The body itself is never quoted: it may hold a token. */
export class ResponseParseError extends Error {
  override readonly name = "ResponseParseError";
  readonly code = "response_parse_error";
  readonly status: number;
  readonly contentType: string;

  constructor(status: number, contentType: string, cause: unknown) {
    super(`Could not parse the ${status} response body as ${contentType || "JSON"} (its Content-Type)`, {
      cause: cause instanceof Error ? new Error(cause.name) : undefined,
    });
    this.status = status;
    this.contentType = contentType;
  }
}

/**
 * The most of an answer the SDK reads on its own: an error body here; a token answer or a list of
 * API tokens in `@engage-voice/auth`. Such answers are a few kB: far past this, it is not one.
 */
export const MAX_ANSWER_BYTES = 256 * 1024;

/**
 * The answer as it came, or, for an error answer whose body may be longer than `maxBytes`, a copy
 * whose body ends there: the rest is cancelled, never read (openapi-fetch reads an error body whole,
 * once per try, and a 500 with a body of hundreds of MB would take that much memory). The copy keeps
 * the status, headers, `url`, `redirected` and `type`.
 */
export function capErrorBody(response: Response, maxBytes: number = MAX_ANSWER_BYTES): Response {
  const { body, status } = response;
  // An opaque redirect (status 0) has no body to read, and cannot be rebuilt.
  if (
    response.ok ||
    !body ||
    status < 200 ||
    Number(response.headers.get("Content-Length") ?? NaN) <= maxBytes
  ) {
    return response;
  }
  const reader = body.getReader();
  let left = maxBytes;
  const capped = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) {
        controller.close();
        return;
      }
      if (chunk.value.byteLength < left) {
        left -= chunk.value.byteLength;
        controller.enqueue(chunk.value);
        return;
      }
      controller.enqueue(chunk.value.subarray(0, left));
      left = 0;
      controller.close();
      await reader.cancel().catch(() => {});
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const copy = new Response(capped, { status, statusText: response.statusText, headers: response.headers });
  const { url, redirected, type } = response;
  return Object.defineProperties(copy, {
    url: { value: url },
    redirected: { value: redirected },
    type: { value: type },
  });
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/**
 * Reads a success body by its Content-Type: JSON as JSON, `text/*` as a string (a created API token,
 * the `true` of a delete). An empty body is `undefined`. Without a Content-Type, JSON is tried first.
 */
export async function parseBody(response: Response): Promise<unknown> {
  const contentType = response.headers.get("Content-Type") ?? "";
  const text = await response.text();
  if (text === "") {
    return undefined;
  }
  if (/^text\//i.test(contentType)) {
    return text;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    if (JSON_TYPE.test(contentType)) {
      throw new ResponseParseError(response.status, contentType, error);
    }
    return text;
  }
}

export const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

/** Form-encodes a flat object; `undefined` and `null` fields are left out rather than sent as text. */
export function encodeForm(body: unknown): string {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new TypeError("A form body must be a plain object of fields");
  }
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined || value === null) {
      continue;
    }
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new TypeError(`Form field "${name}" must be a string, number or boolean`);
    }
    form.append(name, String(value));
  }
  return form.toString();
}
