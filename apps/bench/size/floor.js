// The floor of the app's imports: the client with every guard of a call (deadline, abort, retries,
// manual redirects, the base URL's origin check) and the least correct bearer middleware. What the
// token manager adds (renewal, store, rate limit, answer checks) is the app's imports less this.
import { createClient } from "@engage-voice/client";

export function authorised(token) {
  const client = createClient();
  client.use({
    onRequest: async ({ request }) => {
      request.headers.set("Authorization", `Bearer ${await token()}`);
      return request;
    },
  });
  return client;
}
