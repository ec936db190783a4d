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
