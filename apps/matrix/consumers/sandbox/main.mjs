// Each way into the published @engage-voice/sandbox, as a user's tests would take it, with the packed
// client and auth: a Node server on free ports, the Hono apps as fetch handlers, and msw handlers.
import { createTokenManager } from "@engage-voice/auth";
import { startSandbox } from "@engage-voice/sandbox";
import { createSandboxApps } from "@engage-voice/sandbox/app";
import { sandboxHandlers } from "@engage-voice/sandbox/msw";
import { setupServer } from "msw/node";

const results = {};
const accounts = async (auth) => (await auth.client().GET("/voice/api/v1/admin/accounts")).data?.length ?? 0;

// 1. startSandbox(): both hosts on 127.0.0.1, free ports, stop().
const sandbox = await startSandbox();
try {
  const auth = createTokenManager({
    baseUrl: sandbox.mainUrl,
    rcAccessToken: sandbox.seed.parentTokens[0].token,
    logger: {},
  });
  results.node = await accounts(auth);
} finally {
  await sandbox.stop();
}

// 2. The apps as fetch handlers (as Bun, Deno or a worker serves them): the client's fetch is the app's.
const apps = createSandboxApps();
const viaHandler = createTokenManager({
  baseUrl: "https://sandbox.invalid",
  rcAccessToken: apps.seed.parentTokens[0].token,
  fetch: (request) => apps.main.fetch(request),
  logger: {},
});
results.fetchHandler = await accounts(viaHandler);

// 3. msw: the default production host, answered in process.
const { handlers, apps: mswApps } = sandboxHandlers();
const server = setupServer(...handlers);
server.listen({ onUnhandledFrame: "error" });
try {
  results.msw = await accounts(
    createTokenManager({ rcAccessToken: mswApps.seed.parentTokens[0].token, logger: {} }),
  );
} finally {
  server.close();
}
console.log(JSON.stringify(results));
