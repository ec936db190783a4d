// One server of the sandbox load test, in a process of its own (argv: `sandbox` or `bare`), so that
// the load generator's work is not counted against it and each server's CPU time is its process's:
// the sandbox's contact-center host as its command line runs it (its own process, so
// @hono/node-server's lightweight globals), an access token already exchanged; or a bare Hono app on
// @hono/node-server with its defaults, answering the sandbox's JSON on the same path. Tells the parent
// its URL (and the token) over IPC and exits when the parent disconnects.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startSandbox } from "@engage-voice/sandbox";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { ACCOUNTS_PATH, EXCHANGE_PATH } from "./stub.ts";

/** What the parent hears once the server listens. */
export interface ServerReady {
  url: string;
  accessToken: string;
  /** The accounts JSON the sandbox answered, which the bare app answers too. */
  body: unknown;
}

async function sandboxServer(): Promise<ServerReady & { stop: () => Promise<void> }> {
  // An hour: no token expires during a run.
  const sandbox = await startSandbox({ tokenLifetimeMs: 60 * 60_000, overrideGlobalObjects: true });
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
  return { url: sandbox.mainUrl, accessToken, body: await answer.json(), stop: () => sandbox.stop() };
}

async function bareServer(body: unknown): Promise<ServerReady & { stop: () => Promise<void> }> {
  const bare = new Hono();
  bare.get(ACCOUNTS_PATH, (c) => c.json(body));
  // @hono/node-server's defaults, as a Hono app's `serve()` has them.
  const server = createServer(getRequestListener(bare.fetch));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accessToken: "",
    body,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (import.meta.main) {
  const kind = process.argv[2];
  const started =
    kind === "bare"
      ? await bareServer(JSON.parse(process.argv[3] ?? "null"))
      : kind === "sandbox"
        ? await sandboxServer()
        : undefined;
  if (!started) {
    throw new Error("sandbox-server.ts takes `sandbox` or `bare <the accounts JSON>`");
  }
  const { stop, ...ready } = started;
  process.send?.(ready satisfies ServerReady);
  process.on("disconnect", () => void stop().then(() => process.exit(0)));
}
