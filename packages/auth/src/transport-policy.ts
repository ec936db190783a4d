import { TransportRefusedError, VERBOSE } from "./errors.js";

const isLoopback = (host: string) => host === "localhost" || host === "[::1]" || /^127(\.\d+){3}$/.test(host);

/**
 * Credentials travel only over https:, or over http: to this machine. Anything else needs the
 * explicit `allowInsecureHttp`.
 */
export function checkTransport(url: URL, allowInsecureHttp = false): void {
  if (url.protocol === "https:") {
    return;
  }
  if (url.protocol === "http:" && (allowInsecureHttp || isLoopback(url.hostname))) {
    return;
  }
  throw new TransportRefusedError(
    "transport_refused",
    VERBOSE
      ? `Refusing to send credentials over ${url.protocol} to ${url.hostname}: use https:, http: to a loopback host, or set allowInsecureHttp`
      : `${url.protocol}//${url.hostname}`,
  );
}

/** The origin of a URL, or `undefined` when it is not one. */
export function originOf(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? "").origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a URL (a Request's normalised URL) is on `origin`: a test made once per origin, cheaper
 * than parsing each URL or building its prefix on every call.
 */
export function onOrigin(origin: string): (url: string) => boolean {
  const prefix = `${origin}/`;
  return (url) => url.startsWith(prefix);
}
