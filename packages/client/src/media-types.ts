import { capErrorBody, encodeForm, FORM_CONTENT_TYPE, parseBody } from "./body.js";
import { type CallPolicy, runCall } from "./call-policy.js";
import { formOperations, httpMethods } from "./generated/hosts.js";
import { callPolicyOf, type PolicyOptions } from "./options.js";
import { printablePath } from "./path-templates.js";

type Init = { headers?: unknown; parseAs?: string; bodySerializer?: unknown; [key: string]: unknown };
type Result = { data?: unknown; error?: unknown; response: Response };
type Send = (url: string, init?: Init) => Promise<Result>;

/**
 * Set on each Request a client sends (openapi-fetch copies unknown init keys onto it): a fetch that
 * guards calls itself (`auth.fetch`) leaves one already under a client's deadline and retries alone.
 */
export const GUARDED = "engageVoiceGuarded";

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
 * Content-Type. A caller's own Content-Type, `bodySerializer` or `parseAs` always wins. The call runs
 * under its policy (deadline, abort, retries); the body is read before the deadline is disarmed,
 * unless the caller asked for the stream, which the deadline then goes on guarding.
 */
function send(
  original: Send,
  policy: CallPolicy,
  client: ClientDefaults,
  method: string,
  url: string,
  init: Init = {},
): Promise<Result> {
  try {
    return guarded(original, policy, client, method, url, init);
  } catch (error) {
    // A call's own options are checked before anything is sent: it rejects, as a call does.
    return Promise.reject(error);
  }
}

function guarded(
  original: Send,
  policy: CallPolicy,
  client: ClientDefaults,
  method: string,
  url: string,
  init: Init,
): Promise<Result> {
  // The caller's signal is followed by the call's own, which travels as fetch's second argument.
  const { timeoutMs, maxRetries, signal: callerSignal, ...rest } = init;
  let next: Init = rest;
  if (formOperations[url]?.includes(method.toLowerCase()) && !hasContentType(init.headers)) {
    next = { bodySerializer: encodeForm, ...next, headers: withFormContentType(init.headers) };
  }
  const own = callPolicyOf({ timeoutMs, maxRetries } as PolicyOptions, policy);
  const given = next.parseAs;
  const viaFetch = (init.fetch as FetchWithExt | undefined) ?? client.fetch;
  // The call's signal goes to fetch beside the Request, as `fetch(request, { signal })`, rather than
  // on the Request: undici's fetch makes its own copy of a Request and links that copy to the signal
  // it is given, so a signal on the Request would be linked twice (a third of a stubbed call's cost).
  let callSignal: AbortSignal | null = null;
  const fetch: FetchWithExt = (request, ext) =>
    viaFetch(
      request,
      ext === undefined ? { signal: callSignal } : { ...(ext as object), signal: callSignal },
    ).then(capErrorBody);
  return runCall(
    // Retry warnings, debug lines, the timeout's message and an observer see the template: a caller's
    // literal path or query (the deprecated login's password, a deleted token) must not reach them.
    { method, template: printablePath(url), origin: originOf(init.baseUrl, client.origin) },
    own,
    (callerSignal as AbortSignal | undefined) ?? client.signal,
    async (signal) => {
      callSignal = signal;
      const result = await original(url, {
        ...next,
        parseAs: given ?? "stream",
        fetch,
        [GUARDED]: true,
      });
      if (given !== undefined) {
        return result;
      }
      if (!result.response.ok || result.data == null) {
        return "error" in result ? result : { data: undefined, response: result.response };
      }
      return { data: await parseBody(result.response), response: result.response };
    },
    given === "stream",
  );
}

/** A fetch as a client calls it: the Request, and the call's `signal` (with `requestInitExt`'s fields). */
type FetchWithExt = (request: Request, init?: RequestInit) => Promise<Response>;

/** What a client's calls fall back to: its fetch and its signal, and the origin of its base URL. */
export interface ClientDefaults {
  fetch: FetchWithExt;
  signal: AbortSignal | undefined;
  origin: string;
}

/** The origin a call goes to: its own `baseUrl` (openapi-fetch takes one per call), or its client's. */
const originOf = (baseUrl: unknown, fallback: string) =>
  typeof baseUrl === "string" ? new URL(baseUrl).origin : fallback;

/** Wraps every method of an openapi-fetch client with {@link send}. */
export function applyMediaTypes<C extends object>(
  client: C,
  policy: CallPolicy,
  defaults: ClientDefaults,
): C {
  const methods = client as unknown as Record<string, Send>;
  for (const method of httpMethods.map((name) => name.toUpperCase())) {
    const original = methods[method] as Send;
    methods[method] = (url, init) => send(original, policy, defaults, method, url, init);
  }
  const request = (client as unknown as { request: unknown }).request as (
    method: string,
    url: string,
    init?: Init,
  ) => Promise<Result>;
  (client as unknown as { request: typeof request }).request = (method, url, init) =>
    send((u, i) => request(method, u, i), policy, defaults, method.toUpperCase(), url, init);
  return client;
}
