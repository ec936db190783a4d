// Reading and checking request input. Every problem becomes a message naming the field; values are
// never quoted back, since they may be tokens or passwords.

import type { Context } from "hono";

export const FORM_TYPE = "application/x-www-form-urlencoded";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const utf8Encoder = new TextEncoder();

/** `charset=utf-8` (or the `utf8` label), quoted or not; any other charset is refused. */
const UTF8_CHARSET = /^"?utf-?8"?$/i;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string; status?: 413 };

/** A field or parameter name fit for a message: printable and short. */
function nameOf(name: string): string {
  const printable = name.replace(/[^\x20-\x7e]/g, "?");
  return printable.length > 40 ? `${printable.slice(0, 40)}…` : printable;
}

export function mediaType(c: Context): string {
  return (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** The `charset` parameter of Content-Type, if sent. */
function charsetOf(c: Context): string | undefined {
  for (const parameter of (c.req.header("content-type") ?? "").split(";").slice(1)) {
    const [name, value] = parameter.split("=", 2).map((part) => part.trim());
    if (name?.toLowerCase() === "charset") {
      return value ?? "";
    }
  }
  return undefined;
}

const isHex = (byte: number) =>
  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);

/**
 * One name or value of a form, decoded as `URLSearchParams` does (`+` is a space, `%XX` a byte, a
 * `%` without two hex digits stays) except that bytes which are not UTF-8 are refused: the
 * standard decoder turns them into U+FFFD, so `%FF` would reach the handler as a different value.
 */
function decodeFormPart(part: string): string | undefined {
  const spaced = part.replaceAll("+", " ");
  if (!spaced.includes("%")) {
    return spaced;
  }
  const bytes = utf8Encoder.encode(spaced);
  const decoded = new Uint8Array(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (byte === 0x25 && isHex(bytes[i + 1] ?? 0) && isHex(bytes[i + 2] ?? 0)) {
      decoded[length++] = Number.parseInt(
        String.fromCharCode(bytes[i + 1] as number, bytes[i + 2] as number),
        16,
      );
      i += 2;
    } else {
      decoded[length++] = byte;
    }
  }
  try {
    return utf8.decode(decoded.subarray(0, length));
  } catch {
    return undefined;
  }
}

/** The name-value pairs of a form body in order, or `undefined` if one does not decode to UTF-8. */
function parseForm(text: string): [string, string][] | undefined {
  const pairs: [string, string][] = [];
  for (const field of text.split("&")) {
    if (field === "") {
      continue;
    }
    const equals = field.indexOf("=");
    const name = decodeFormPart(equals === -1 ? field : field.slice(0, equals));
    const value = decodeFormPart(equals === -1 ? "" : field.slice(equals + 1));
    if (name === undefined || value === undefined) {
      return undefined;
    }
    pairs.push([name, value]);
  }
  return pairs;
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
  const charset = charsetOf(c);
  if (charset !== undefined && !UTF8_CHARSET.test(charset)) {
    return { ok: false, message: "The form body must be UTF-8: send charset=utf-8 or no charset" };
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
  const form = parseForm(text);
  if (!form) {
    return { ok: false, message: "The form body is not valid UTF-8 once percent-decoded" };
  }
  const seen = new Map<string, string>();
  for (const [name, value] of form) {
    if (!(fields as readonly string[]).includes(name)) {
      return { ok: false, message: `Form field ${nameOf(name)} is not allowed` };
    }
    if (seen.has(name)) {
      return { ok: false, message: `Form field ${name} must be sent once` };
    }
    if (value.includes("\0")) {
      return { ok: false, message: `Form field ${name} must not contain NUL` };
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
