// A tap on the global fetch, which every generated client calls at request time: what went over
// the wire to Prism and what came back, independent of what each client makes of it.
import { vi } from "vitest";

/** The headers that carry a credential; the document asks for one of them per request. */
const CREDENTIAL_HEADERS = ["authorization", "x-auth-token"];

export interface Exchange {
  method: string;
  path: string;
  status: number;
  credentials: string[];
  /** Prism's `sl-violations` header: what in the request or the answer broke the contract. */
  violations: string | null;
  contentType: string;
}

export function tapFetch() {
  const exchanges: Exchange[] = [];
  const realFetch = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const response = await realFetch(request);
    exchanges.push({
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      credentials: CREDENTIAL_HEADERS.filter((name) => request.headers.has(name)),
      violations: response.headers.get("sl-violations"),
      contentType: response.headers.get("content-type") ?? "",
    });
    return response;
  });
  return {
    exchanges,
    /** Every exchange that Prism flagged or answered itself, or that sent more than one credential. */
    problems: () =>
      exchanges.flatMap(({ method, path, status, credentials, violations, contentType }) => {
        const label = `${method} ${path} -> ${status}`;
        return [
          ...(violations === null ? [] : [`${label}: sl-violations ${violations}`]),
          ...(contentType.includes("problem+json") ? [`${label}: answered by Prism itself`] : []),
          ...(credentials.length > 1 ? [`${label}: ${credentials.join(" and ")} sent together`] : []),
        ];
      }),
    restore: () => vi.unstubAllGlobals(),
  };
}
