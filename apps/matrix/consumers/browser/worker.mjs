// A web worker: no DOM and no Node globals, like an edge worker. It checks that first, so a pass
// here means the packages need nothing but web APIs.
import * as auth from "@engage-voice/auth";
import * as client from "@engage-voice/client";
import { describeRuntime, runScenario } from "./scenario.mjs";

const nodeGlobals = ["process", "require", "Buffer", "global", "module", "window", "document"].filter(
  (name) => typeof globalThis[name] !== "undefined",
);

async function main() {
  if (nodeGlobals.length > 0) {
    throw new Error(`not a bare worker: it has ${nodeGlobals.join(", ")}`);
  }
  const config = await (await fetch("../config.json")).json();
  return { ...(await runScenario({ client, auth }, config)), runtime: `${describeRuntime()} (web worker)` };
}

main().then(
  (result) => postMessage({ result }),
  (error) => postMessage({ error: String(error?.stack ?? error) }),
);
