// The shared scenario against the published sandbox's Hono apps as fetch handlers, in this process: no
// port and no socket, as a Bun or Deno test (or a worker) would use them. The hosts are names that
// cannot resolve, so a request that left the process would fail the scenario.
import * as auth from "@engage-voice/auth";
import * as authNode from "@engage-voice/auth/node";
import * as client from "@engage-voice/client";
import { createSandboxApps } from "@engage-voice/sandbox/app";
import config from "./config.json" with { type: "json" };
import { describeRuntime, runScenario } from "./scenario.mjs";

// The lifetime the matrix gives every sandbox (src/sandbox.ts); the control moves the clock.
const apps = createSandboxApps({ tokenLifetimeMs: 300_000, control: { enabled: true } });
const hosts = new Map([
  [new URL(config.mainUrl).origin, apps.main],
  [new URL(config.legacyUrl).origin, apps.legacy],
]);
const inProcess = async (request) => {
  const app = hosts.get(new URL(request.url).origin);
  if (!app) {
    throw new Error(`a request for ${new URL(request.url).origin} would have left the process`);
  }
  return app.fetch(request);
};

const result = await runScenario({ client, auth, authNode }, config, inProcess);
const resolved = import.meta.resolve("@engage-voice/client");
const sandboxResolved = import.meta.resolve("@engage-voice/sandbox/app");
console.log(
  `MATRIX_RESULT ${JSON.stringify({ ...result, runtime: describeRuntime(), resolved, sandboxResolved })}`,
);
