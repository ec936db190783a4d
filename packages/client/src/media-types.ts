import { encodeForm, FORM_CONTENT_TYPE, parseBody } from "./body.js";
import { formOperations } from "./generated/hosts.js";

type Init = { headers?: unknown; parseAs?: string; bodySerializer?: unknown; [key: string]: unknown };
type Result = { data?: unknown; error?: unknown; response: Response };
type Send = (url: string, init?: Init) => Promise<Result>;

const METHODS = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

function hasContentType(headers: unknown): boolean {
  if (!headers) {
    return false;
  }
  if (headers instanceof Headers) {
    return headers.has("Content-Type");
  }
  const entries = Array.isArray(headers) ? headers : Object.entries(headers as object);
  return entries.some(([name]) => String(name).toLowerCase() === "content-type");
}

function withFormContentType(headers: unknown): unknown {
  if (headers instanceof Headers) {
    const copy = new Headers(headers);
    copy.set("Content-Type", FORM_CONTENT_TYPE);
    return copy;
  }
  if (Array.isArray(headers)) {
    return [...headers, ["Content-Type", FORM_CONTENT_TYPE]];
  }
  return { ...(headers as object | undefined), "Content-Type": FORM_CONTENT_TYPE };
}

/**
 * Applies what the document says about each operation's media types, which openapi-fetch leaves to
 * the caller: form operations are sent form-encoded, and success bodies are parsed by their
 * Content-Type. A caller's own Content-Type, `bodySerializer` or `parseAs` always wins.
 */
async function send(original: Send, method: string, url: string, init: Init = {}): Promise<Result> {
  let next = init;
  if (formOperations[url]?.includes(method.toLowerCase()) && !hasContentType(init.headers)) {
    next = { bodySerializer: encodeForm, ...next, headers: withFormContentType(init.headers) };
  }
  if (next.parseAs !== undefined) {
    return original(url, next);
  }
  const result = await original(url, { ...next, parseAs: "stream" });
  if (!result.response.ok || result.data == null) {
    return "error" in result ? result : { data: undefined, response: result.response };
  }
  return { data: await parseBody(result.response), response: result.response };
}

export function applyMediaTypes<C extends object>(client: C): C {
  const methods = client as unknown as Record<string, Send>;
  for (const method of METHODS) {
    const original = methods[method] as Send;
    methods[method] = (url, init) => send(original, method, url, init);
  }
  const request = (client as unknown as { request: unknown }).request as (
    method: string,
    url: string,
    init?: Init,
  ) => Promise<Result>;
  (client as unknown as { request: typeof request }).request = (method, url, init) =>
    send((u, i) => request(method, u, i), method, url, init);
  return client;
}
