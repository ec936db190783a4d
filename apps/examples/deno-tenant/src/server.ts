// One tenant's contact center over HTTP, on Deno: the tenant's accounts and its active team, read
// through a token manager that exchanges the tenant's RingCentral token once and renews on demand.
import { createTokenManager } from "@engage-voice/auth";
import { createClient, isApiError } from "@engage-voice/client";

const baseUrl = Deno.env.get("ENGAGE_VOICE_BASE_URL") ?? "https://engage.ringcentral.com";
const rcAccessToken = Deno.env.get("RC_ACCESS_TOKEN");
if (!rcAccessToken) {
  console.error("Set RC_ACCESS_TOKEN to the tenant's RingCentral access token.");
  Deno.exit(2);
}

const auth = createTokenManager({ baseUrl, rcAccessToken });
const client = createClient({ baseUrl });
client.use(auth.middleware);

/** Our answer for a failed API call: its status and the API's message, never a credential. */
function upstreamFailure(status: number, error: unknown): Response {
  const message = isApiError(error) ? error.generalMessage : `the API answered ${status}`;
  return Response.json({ error: message }, { status: status === 403 ? 403 : 502 });
}

async function accounts(): Promise<Response> {
  const { data, error, response } = await client.GET("/voice/api/v1/admin/accounts");
  if (data === undefined) {
    return upstreamFailure(response.status, error);
  }
  return Response.json(data.map(({ accountId, accountName }) => ({ accountId, accountName })));
}

async function team(): Promise<Response> {
  const { data, error, response } = await client.GET("/voice/api/v1/admin/users", {
    params: { query: { flatten: true, activeOnly: true } },
  });
  if (data === undefined) {
    return upstreamFailure(response.status, error);
  }
  return Response.json(data.map(({ userId, fullName }) => ({ userId, fullName })));
}

const routes: Record<string, () => Promise<Response>> = { "/accounts": accounts, "/team": team };

const server = Deno.serve(
  {
    hostname: "127.0.0.1",
    port: Number(Deno.env.get("PORT") ?? "8000"),
    onListen: ({ hostname, port }) => console.log(`Serving one tenant on http://${hostname}:${port}`),
  },
  (request) => {
    const route = routes[new URL(request.url).pathname];
    if (!route) {
      return Response.json({ error: "not found: try /accounts or /team" }, { status: 404 });
    }
    return request.method === "GET"
      ? route()
      : new Response(null, { status: 405, headers: { Allow: "GET" } });
  },
);

// A stop signal lets the requests under way finish, then ends the process.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => void server.shutdown());
}
await server.finished;
