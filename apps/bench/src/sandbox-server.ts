// The two servers of the sandbox load test, in their own process so that the load generator's work
// is not counted against them: the sandbox's contact-center host (an access token already
// exchanged) and a bare Hono app answering the same JSON on the same path. Tells the parent the
// URLs and the token over IPC and exits when the parent disconnects.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startSandbox } from "@engage-voice/sandbox";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { ACCOUNTS_PATH, EXCHANGE_PATH } from "./stub.ts";

// An hour: no token expires during a run.
const sandbox = await startSandbox({ tokenLifetimeMs: 60 * 60_000 });
const exchanged = await fetch(`${sandbox.mainUrl}${EXCHANGE_PATH}`, {
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({
    rcAccessToken: sandbox.seed.parentTokens[0]?.token ?? "",
    rcTokenType: "Bearer",
  }),
});
const { accessToken } = (await exchanged.json()) as { accessToken: string };
const answer = await fetch(`${sandbox.mainUrl}${ACCOUNTS_PATH}`, {
  headers: { Authorization: `Bearer ${accessToken}` },
});
if (answer.status !== 200) {
  throw new Error(`the sandbox answered ${answer.status} to the authorised call`);
}
const body: unknown = await answer.json();

// The same stack as the sandbox's Node entry (Hono on @hono/node-server), minus the sandbox.
const bare = new Hono();
bare.get(ACCOUNTS_PATH, (c) => c.json(body));
const bareServer = createServer(getRequestListener(bare.fetch, { overrideGlobalObjects: false }));
bareServer.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => bareServer.listen(0, "127.0.0.1", resolve));

process.send?.({
  sandboxUrl: sandbox.mainUrl,
  bareUrl: `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`,
  accessToken,
});
process.on("disconnect", () => {
  bareServer.close();
  void sandbox.stop().then(() => process.exit(0));
});
