// Reading and checking request input. Every problem becomes a message naming the field; values are
// never quoted back, since they may be tokens or passwords.

import type { Context } from "hono";

export const FORM_TYPE = "application/x-www-form-urlencoded";

const utf8 = new TextDecoder("utf-8", { fatal: true });

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string; status?: 413 };

/** A field or parameter name fit for a message: printable and short. */
function nameOf(name: string): string {
  const printable = name.replace(/[^\x20-\x7e]/g, "?");
  return printable.length > 40 ? `${printable.slice(0, 40)}…` : printable;
}

export function mediaType(c: Context): string {
  return (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/**
 * Reads a body of at most `maxBytes`, whatever its Content-Length says; `undefined` when larger.
 * The cap is enforced while reading, so a chunked body cannot exhaust memory.
 */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  if (!body) {
    return new Uint8Array(0);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads a form body with exactly the `fields` given (each once, none empty, no others), as the
 * request schemas of the specification say (`additionalProperties: false`, `minLength: 1`).
 */
export async function readForm<F extends string>(
  c: Context,
  fields: readonly F[],
  maxBytes: number,
): Promise<Checked<Record<F, string>>> {
  if (mediaType(c) !== FORM_TYPE) {
    return { ok: false, message: `The request body must be form-encoded (Content-Type: ${FORM_TYPE})` };
  }
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readLimited(c.req.raw.body, maxBytes);
  } catch {
    return { ok: false, message: "The request body could not be read" };
  }
  if (!bytes) {
    return { ok: false, status: 413, message: `The request body is larger than ${maxBytes} bytes` };
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, message: "The form body is not valid UTF-8" };
  }
  const form = new URLSearchParams(text);
  const seen = new Map<string, string>();
  for (const [name, value] of form) {
    if (!(fields as readonly string[]).includes(name)) {
      return { ok: false, message: `Form field ${nameOf(name)} is not allowed` };
    }
    if (seen.has(name)) {
      return { ok: false, message: `Form field ${name} must be sent once` };
    }
    seen.set(name, value);
  }
  for (const name of fields) {
    const value = seen.get(name);
    if (value === undefined) {
      return { ok: false, message: `Form field ${name} is required` };
    }
    if (value === "") {
      return { ok: false, message: `Form field ${name} must not be empty` };
    }
  }
  return { ok: true, value: Object.fromEntries(seen) as Record<F, string> };
}

/** An optional boolean query parameter: absent, `true` or `false`, sent at most once. */
export function booleanQuery(c: Context, name: string): Checked<boolean | undefined> {
  const values = c.req.queries(name);
  if (values === undefined || values.length === 0) {
    return { ok: true, value: undefined };
  }
  if (values.length > 1) {
    return { ok: false, message: `Query parameter ${name} must be sent once` };
  }
  if (values[0] === "true") {
    return { ok: true, value: true };
  }
  if (values[0] === "false") {
    return { ok: true, value: false };
  }
  return { ok: false, message: `Query parameter ${name} must be true or false` };
}

/** A required, non-empty string query parameter, sent once. */
export function requiredQuery(c: Context, name: string): Checked<string> {
  const values = c.req.queries(name) ?? [];
  if (values.length === 0) {
    return { ok: false, message: `Query parameter ${name} is required` };
  }
  if (values.length > 1) {
    return { ok: false, message: `Query parameter ${name} must be sent once` };
  }
  if (values[0] === "") {
    return { ok: false, message: `Query parameter ${name} must not be empty` };
  }
  return { ok: true, value: values[0] as string };
}
