import {
  createClient,
  type EngageVoiceClient,
  type EngageVoiceClientOptions,
  idempotentMethods,
  type Middleware,
  printablePath,
} from "@engage-voice/client";
import { type CallPolicy, callPolicyOf, GUARDED, runCall } from "@engage-voice/client/internal";
import { setBearer } from "./credential-headers.js";
import { EngageVoiceAuthError, OriginMismatchError, VERBOSE } from "./errors.js";
import { readPrefix } from "./limited-fetch.js";
import type { TokenCycler } from "./token-cycler.js";
import { onOrigin } from "./transport-policy.js";
import type { FetchLike } from "./types.js";

export interface AuthoriserDeps {
  origin: string;
  cycler: TokenCycler;
  /** The manager's `fetch` option: what authorised requests are sent with. */
  fetch: FetchLike;
  timeoutMs: number;
  /** Deadline and retries of API calls made through `fetch` and `client()`. */
  policy: CallPolicy;
}

/** What is needed to send an authorised request once more: the token it carried and a copy of it. */
interface Sent {
  token: string;
  replay: Request | undefined;
}

/** A request with its bearer token, and what replaying it needs. */
type Authorised = [Request, Sent];

/** Where the middleware keeps, on a request it authorised, what a replay of it needs. */
const SENT = Symbol("engageVoiceSent");
type Tagged = Request & { [SENT]?: Sent | undefined };

/**
 * How much of a `401` body is read, and for how long at most, to recognise "Jwt is expired": the
 * answer goes to the caller as fetch would give it, whatever its body does after that.
 */
export const expiredBodyRead = { maxBytes: 256, timeoutMs: 1_000 } as const;

/** The bearer and the replay of a `401 Jwt is expired`, for the middleware and for `fetch`. */
function authorisingCore(deps: AuthoriserDeps) {
  const { origin, cycler } = deps;
  const isOnOrigin = onOrigin(origin);
  const bearer = (request: Request, token: string) => setBearer(request, `Bearer ${token}`);
  /** Credentialed requests never follow a redirect, whatever fetch does with headers on one. */
  const manual = (request: Request) =>
    request.redirect === "manual" ? request : new Request(request, { redirect: "manual" });
  async function followUp(
    sent: Sent,
    response: Response,
    send: (request: Request) => Promise<Response>,
    signal: AbortSignal,
  ) {
    if (
      response.status !== 401 ||
      !/jwt is expired/i.test(await readPrefix(response, expiredBodyRead.maxBytes, expiredBodyRead.timeoutMs))
    ) {
      return undefined;
    }
    const renewed = await cycler.renewedAfter(sent.token, signal);
    if (!sent.replay) {
      await response.body?.cancel();
      throw new EngageVoiceAuthError(
        "request_not_replayable",
        VERBOSE
          ? "The access token expired and was renewed, but a stream body cannot be sent twice: send the request again"
          : "stream body",
        { status: 401 },
      );
    }
    await response.body?.cancel();
    return send(bearer(sent.replay, renewed));
  }

  function mismatch(url: string): OriginMismatchError {
    const other = new URL(url).origin;
    return new OriginMismatchError(
      "origin_mismatch",
      VERBOSE
        ? `This client sends requests to ${other}, but the token manager authorises ${origin} only: use auth.client(), or give both the same base URL (createTokenManager({ baseUrl: "${other}" }))`
        : `${other} is not ${origin}`,
    );
  }

  /**
   * The request with the bearer token, and what replaying it needs. A request without a body can be
   * sent again as it is; one with a body is copied before it is read, unless it is a stream.
   */
  function prepared(request: Request, token: string, stream: boolean): Authorised {
    const sent = bearer(manual(request), token);
    return [sent, { token, replay: sent.body === null ? sent : stream ? undefined : sent.clone() }];
  }

  /**
   * The per-call path: no await (a promise costs more than the rest of it) while the cached token is
   * good. A caller that gives up stops waiting; the shared renewal goes on for the others, and ends
   * once every caller has given up.
   */
  function authorise(
    request: Request,
    stream: boolean,
    signal: AbortSignal,
  ): Authorised | Promise<Authorised> {
    const token = cycler.servableToken();
    return token === undefined
      ? cycler.accessToken(signal).then((renewed) => prepared(request, renewed, stream))
      : prepared(request, token, stream);
  }

  // What onResponse needs rides on the request it is handed back: cheaper than a WeakMap, and gone
  // with the request all the same.
  const remember = ([sent, entry]: Authorised) => {
    (sent as Tagged)[SENT] = entry;
    return sent;
  };
  const middleware: Middleware = {
    onRequest({ request }) {
      if (!isOnOrigin(request.url)) {
        throw mismatch(request.url);
      }
      const ready = authorise(request, false, request.signal);
      return Array.isArray(ready) ? remember(ready) : ready.then(remember);
    },
    onResponse({ request, response, options }) {
      const entry = (request as Tagged)[SENT];
      (request as Tagged)[SENT] = undefined;
      if (entry === undefined || response.status !== 401) {
        return undefined;
      }
      // Called unbound: a browser's fetch refuses to run as a method of another object.
      const clientFetch = options.fetch;
      return followUp(entry, response, (r) => clientFetch(r), request.signal);
    },
  };

  /**
   * One authorised try: the bearer token, the answer, and the replay of a `401 Jwt is expired`.
   * `init` is what goes beside the request to fetch: the call's signal.
   */
  function sendOnce(request: Request, stream: boolean, init: RequestInit | undefined): Promise<Response> {
    const signal = init?.signal ?? request.signal;
    const send = (r: Request) => deps.fetch(r, init);
    const go = ([sent, entry]: Authorised) =>
      send(sent).then((response) =>
        response.status === 401
          ? followUp(entry, response, send, signal).then((replayed) => replayed ?? response)
          : response,
      );
    const ready = authorise(request, stream, signal);
    return Array.isArray(ready) ? go(ready) : ready.then(go);
  }

  return { middleware, sendOnce, isOnOrigin };
}

/**
 * The manager's `fetch` and `client()`: a client's call is already under its deadline and retries,
 * so it is tried once here; a call made with `fetch` itself gets them here.
 */
function authorisedCalls(
  deps: AuthoriserDeps,
  { sendOnce, isOnOrigin }: Pick<ReturnType<typeof authorisingCore>, "sendOnce" | "isOnOrigin">,
) {
  const { origin, policy } = deps;
  function authFetch(
    input: string | URL | Request,
    init?: RequestInit & { timeoutMs?: number; maxRetries?: number },
  ): Promise<Response> {
    // A client's call is already under its deadline and retries: one try here, with the call's signal
    // that the client gives beside its Request. Copying the Request would cost more than the call.
    if ((input as { [GUARDED]?: boolean })[GUARDED] && input instanceof Request) {
      try {
        return isOnOrigin(input.url) ? sendOnce(input, false, init) : deps.fetch(input, init);
      } catch (error) {
        // As fetch does: a call that cannot start rejects, it never throws.
        return Promise.reject(error);
      }
    }
    return guardedCall(input, init);
  }

  /** A call made with `auth.fetch` itself, not through a client: it gets its own deadline and retries here. */
  async function guardedCall(
    input: string | URL | Request,
    init?: RequestInit & { timeoutMs?: number; maxRetries?: number },
  ): Promise<Response> {
    // A Request given alone is authorised as it is.
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    if (!isOnOrigin(request.url)) {
      return deps.fetch(request);
    }
    // A stream is read once; buffering one to replay it could hold an upload of any size in memory.
    const stream = init?.body instanceof ReadableStream;
    // Printed by retry warnings, debug lines and the timeout's message, and told to an observer: the
    // template, never a value of a path or a query written out by the caller.
    const url = new URL(request.url);
    const call = { method: request.method, template: printablePath(url.pathname), origin: url.origin };
    const own = callPolicyOf({ timeoutMs: init?.timeoutMs, maxRetries: init?.maxRetries }, policy);
    // Each try gets its own copy when a retry may need the body again, so a POST's body is never held
    // twice; the call's signal (which follows the request's) goes beside it.
    const again = own.maxRetries > 0 && idempotentMethods.includes(request.method) && request.body !== null;
    const result = await runCall(
      call,
      own,
      request.signal,
      async (signal) => ({ response: await sendOnce(again ? request.clone() : request, stream, { signal }) }),
      true,
    );
    return result.response;
  }

  const clientWith = (options?: Omit<EngageVoiceClientOptions, "baseUrl" | "fetch">): EngageVoiceClient =>
    createClient({
      redirect: "manual",
      timeoutMs: policy.timeoutMs,
      maxRetries: policy.maxRetries,
      logger: policy.logger,
      clock: { now: policy.now },
      sleep: policy.sleep,
      random: policy.random,
      observer: policy.observer,
      ...options,
      baseUrl: origin,
      fetch: authFetch,
    });
  // Made once: `pool.get(tenant).client()` per request costs a kept client's call, not a new client's.
  let kept: EngageVoiceClient | undefined;
  const keptClient = () => {
    kept ??= clientWith();
    return kept;
  };
  return {
    fetch: authFetch,
    client: (options?: Omit<EngageVoiceClientOptions, "baseUrl" | "fetch">): EngageVoiceClient =>
      options === undefined ? keptClient() : clientWith(options),
  };
}

/**
 * Puts the bearer token on requests to one origin, one way for the middleware and `fetch` alike (as
 * octokit's auth strategies share one `hook`): before the request, a servable token; after the
 * answer, one replay for a `401 Jwt is expired`. Deadlines and retries are the client's call policy.
 */
export function createAuthoriser(deps: AuthoriserDeps) {
  const core = authorisingCore(deps);
  return { middleware: core.middleware, ...authorisedCalls(deps, core) };
}
