// A browser app: the packages come from the ESM builds (bundled for the browser), the scenario
// runs on the page, and the outcome is left on `globalThis` for the test to read.
import * as auth from "@engage-voice/auth";
import * as client from "@engage-voice/client";
import { describeRuntime, runScenario } from "./scenario.mjs";

async function main() {
  const config = await (await fetch("./config.json")).json();
  return { ...(await runScenario({ client, auth }, config)), runtime: describeRuntime() };
}

main().then(
  (result) => {
    globalThis.matrixOutcome = { result };
  },
  (error) => {
    globalThis.matrixOutcome = { error: String(error?.stack ?? error) };
  },
);
