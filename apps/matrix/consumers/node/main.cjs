// A CommonJS service: loads both packages with `require`. The scenario is shared ESM code, so it is
// imported, but it only receives the modules that `require` returned.
const client = require("@engage-voice/client");
const auth = require("@engage-voice/auth");
const authNode = require("@engage-voice/auth/node");
const config = require("./config.json");

import("./scenario.mjs")
  .then(async ({ describeRuntime, runScenario }) => {
    const result = await runScenario({ client, auth, authNode }, config);
    const resolved = require.resolve("@engage-voice/client");
    console.log(`MATRIX_RESULT ${JSON.stringify({ ...result, runtime: describeRuntime(), resolved })}`);
  })
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
