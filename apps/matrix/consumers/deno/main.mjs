// An ESM service: loads both packages with `import`, then runs the shared scenario.
import * as auth from "@engage-voice/auth";
import * as authNode from "@engage-voice/auth/node";
import * as client from "@engage-voice/client";
import config from "./config.json" with { type: "json" };
import { describeRuntime, runScenario } from "./scenario.mjs";

const result = await runScenario({ client, auth, authNode }, config);
const resolved = import.meta.resolve("@engage-voice/client");
console.log(`MATRIX_RESULT ${JSON.stringify({ ...result, runtime: describeRuntime(), resolved })}`);
