// The least anyone writes for this API by hand: openapi-fetch and a rotation of the refresh token,
// one renewal shared by concurrent callers. No deadline, retry, store, lock, rate limit or answer check.
import createClient from "openapi-fetch";

export function rotatingClient(baseUrl, rcAccessToken) {
  let tokens;
  let renewing;
  const call = (path, body) =>
    fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body),
    }).then((response) => response.json());
  const renew = () =>
    (renewing ??= (
      tokens?.refreshToken
        ? call("/api/auth/token/refresh", { refresh_token: tokens.refreshToken, rcTokenType: "Bearer" })
        : call("/api/auth/login/rc/accesstoken?includeRefresh=true", { rcAccessToken, rcTokenType: "Bearer" })
    )
      .then((answer) => {
        const { exp } = JSON.parse(atob(answer.accessToken.split(".")[1]));
        tokens = { ...answer, expiresAt: exp * 1000 - 30_000 };
        return tokens;
      })
      .finally(() => {
        renewing = undefined;
      }));
  const client = createClient({ baseUrl });
  client.use({
    async onRequest({ request }) {
      const current = tokens && Date.now() < tokens.expiresAt ? tokens : await renew();
      request.headers.set("Authorization", `Bearer ${current.accessToken}`);
      return request;
    },
  });
  return client;
}
