import { TransportRefusedError } from "./errors.js";

const isLoopback = (host: string) => host === "localhost" || host === "[::1]" || /^127(\.\d+){3}$/.test(host);

/**
 * Credentials travel only over https:, or over http: to this machine. Anything else needs the
 * explicit `allowInsecureHttp`.
 */
export function checkTransport(url: URL, allowInsecureHttp = false): void {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && (allowInsecureHttp || isLoopback(url.hostname))) return;
  throw new TransportRefusedError(
    "transport_refused",
    `Refusing to send credentials over ${url.protocol} to ${url.hostname}: use https:, http: to a loopback host, or set allowInsecureHttp`,
  );
}

export function originOf(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? "").origin;
  } catch {
    return undefined;
  }
}

export type CredentialHeader = "Authorization" | "X-Auth-Token";

/** Whether `url` (a Request's normalised URL) is on `origin`: cheaper than parsing it on every call. */
export const onOrigin = (url: string, origin: string) => url.startsWith(`${origin}/`);

/**
 * Sets one credential header on `request` in place and removes the other, so the two are never sent
 * together. Authorization may follow redirects: fetch removes it on a redirect to another origin (the
 * Fetch standard's "CORS non-wildcard request-header name"). A request whose headers cannot change
 * gets a copy.
 */
export function setBearer(request: Request, value: string): Request {
  try {
    request.headers.delete("X-Auth-Token");
    request.headers.set("Authorization", value);
    return request;
  } catch {
    return authorize(request, "Authorization", value);
  }
}

/**
 * A copy of `request` with one credential header and without the other, so the two are never sent
 * together. Redirects are not followed: a redirect to another origin would carry X-Auth-Token, which
 * fetch does not remove as it does Authorization.
 */
export function authorize(request: Request, header: CredentialHeader, value: string): Request {
  const headers = new Headers(request.headers);
  headers.delete(header === "Authorization" ? "X-Auth-Token" : "Authorization");
  headers.set(header, value);
  return new Request(request, { headers, redirect: "manual" });
}
