/**
 * The one rule for an address a credential is sent to, used by the clients, `@engage-voice/auth`,
 * the CLI's `--base-url` and the sandbox's handlers: an http(s) origin alone. The document's paths
 * start at the host root, so a path, query or fragment would send the credential to a wrong place
 * on the host; a user name or password would be sent to the host and quoted by fetch's errors.
 *
 * Returns the origin, or what is wrong as the end of a sentence that starts with the option's name
 * (`baseUrl`, `--base-url`): each caller raises its own typed error. The reason quotes at most the
 * scheme and the origin, never the value (it may hold a password).
 */
export function checkOrigin(value: string): { origin: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: "must be an absolute URL such as https://engage.ringcentral.com" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { problem: `must use https: or http:, not ${url.protocol}` };
  }
  if (url.username || url.password) {
    return {
      problem: `must not contain a username or password: give the origin alone, such as ${url.origin}, and send credentials in headers`,
    };
  }
  // An empty query or fragment (`https://host/?`) leaves `search` and `hash` empty: the text shows it.
  if (url.pathname !== "/" || url.search || url.hash || /[?#]/.test(value)) {
    return {
      problem: `must be an origin without a path, query or fragment, such as ${url.origin}: the API's paths start at the host root`,
    };
  }
  return { origin: url.origin };
}
