import {
  type ClientOptions,
  createClient,
  type EngageVoiceClient,
  type Middleware,
} from "@engage-voice/client";
import { setBearer } from "./credential-headers.js";
import { EngageVoiceAuthError, OriginMismatchError } from "./errors.js";
import { readPrefix } from "./limited-fetch.js";
import { retryAfterMs } from "./requests.js";
import type { TokenCycler } from "./token-cycler.js";
import { onOrigin } from "./transport-policy.js";
import type { Clock, FetchLike, Logger } from "./types.js";

export interface AuthoriserDeps {
  origin: string;
  cycler: TokenCycler;
  /** The manager's `fetch` option: what authorised requests are sent with. */
  fetch: FetchLike;
  timeoutMs: number;
  rateLimitRetry: { retries: number; maxWaitMs: number };
  sleep: (ms: number) => Promise<void>;
  clock: Clock;
  logger: Logger;
}

/** What is needed to send an authorised request once more: the token it carried and a copy of it. */
interface Sent {
  token: string;
  replay: Request | undefined;
}

/** The longest part of a `401` body read to recognise "Jwt is expired". */
const EXPIRED_PREFIX_BYTES = 256;

/**
 * Puts the bearer token on requests to one origin, one way for the middleware and `fetch` alike (as
 * octokit's auth strategies share one `hook`): before the request, a servable token; after the
 * answer, one replay for a `401 Jwt is expired` and waits for a `GET` answered `429`.
 */
export function createAuthoriser(deps: AuthoriserDeps) {
  const { origin, cycler, timeoutMs, rateLimitRetry, clock, logger } = deps;
  const bearer = (request: Request, token: string) => setBearer(request, `Bearer ${token}`);
  /** Credentialed requests never follow a redirect, whatever fetch does with headers on one. */
  const manual = (request: Request) =>
    request.redirect === "manual" ? request : new Request(request, { redirect: "manual" });
  // The per-call path: no await while the cached token is good.
  const token = async () => cycler.servableToken() ?? (await cycler.accessToken());

  async function followUp(sent: Sent, response: Response, send: FetchLike): Promise<Response | undefined> {
    let answer = response;
    if (
      answer.status === 401 &&
      /jwt is expired/i.test(await readPrefix(answer, EXPIRED_PREFIX_BYTES, timeoutMs))
    ) {
      const renewed = await cycler.renewedAfter(sent.token);
      if (!sent.replay) {
        await answer.body?.cancel();
        throw new EngageVoiceAuthError(
          "request_not_replayable",
          "The access token expired and was renewed, but a stream body cannot be sent twice: send the request again",
          { status: 401 },
        );
      }
      answer = await send(bearer(sent.replay, renewed));
    }
    for (let attempt = 0; answer.status === 429 && sent.replay?.method === "GET"; attempt++) {
      const wait = retryAfterMs(answer, clock.now());
      if (attempt >= rateLimitRetry.retries || wait > rateLimitRetry.maxWaitMs) {
        break;
      }
      await answer.body?.cancel();
      logger.warn?.(`A GET was rate limited: trying again in ${wait} ms`);
      await deps.sleep(wait);
      answer = await send(bearer(sent.replay, await token()));
    }
    return answer === response ? undefined : answer;
  }

  function mismatch(url: string): OriginMismatchError {
    const other = new URL(url).origin;
    return new OriginMismatchError(
      "origin_mismatch",
      `This client sends requests to ${other}, but the token manager authorises ${origin} only: use auth.client(), or give both the same base URL (createTokenManager({ baseUrl: "${other}" }))`,
    );
  }

  /**
   * The request with the bearer token, and what replaying it needs. A request without a body can be
   * sent again as it is; one with a body is copied before it is read, unless it is a stream.
   */
  async function authorise(request: Request, stream: boolean): Promise<[Request, Sent]> {
    const current = await token();
    const sent = bearer(manual(request), current);
    return [sent, { token: current, replay: sent.body === null ? sent : stream ? undefined : sent.clone() }];
  }

  const authorized = new WeakMap<Request, Sent>();
  const middleware: Middleware = {
    async onRequest({ request }) {
      if (!onOrigin(request.url, origin)) {
        throw mismatch(request.url);
      }
      const [sent, entry] = await authorise(request, false);
      authorized.set(sent, entry);
      return sent;
    },
    async onResponse({ request, response, options }) {
      const entry = authorized.get(request);
      authorized.delete(request);
      // Called unbound: a browser's fetch refuses to run as a method of another object.
      const clientFetch = options.fetch;
      return entry ? followUp(entry, response, (r) => clientFetch(r)) : undefined;
    },
  };

  async function authFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    // A Request given alone is authorised as it is (as openapi-fetch hands it over with `fetch:
    // auth.fetch`): copying it on every call would cost more than the call itself.
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    if (!onOrigin(request.url, origin)) {
      return deps.fetch(request);
    }
    // A stream is read once; buffering one to replay it could hold an upload of any size in memory.
    const [sent, entry] = await authorise(request, init?.body instanceof ReadableStream);
    const response = await deps.fetch(sent);
    return (await followUp(entry, response, deps.fetch)) ?? response;
  }

  return {
    middleware,
    fetch: authFetch,
    client: (options?: Omit<ClientOptions, "baseUrl" | "fetch">): EngageVoiceClient =>
      createClient({ redirect: "manual", ...options, baseUrl: origin, fetch: authFetch }),
  };
}
