export type CredentialHeader = "Authorization" | "X-Auth-Token";

/**
 * Sets the bearer credential on `request` in place and removes `X-Auth-Token`, so the two are never
 * sent together. A request whose headers cannot change gets a copy.
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
