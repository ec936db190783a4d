import { defineCommand } from "../../../command.js";
import { legacyAuth, legacyDetails } from "../options.js";

export const apiTokensCreate = defineCommand({
  name: "api-tokens create",
  summary: "create a permanent API token and print it",
  positionals: 0,
  options: legacyAuth,
  details: [...legacyDetails, "Prints the bare token unless --json."],
  examples: [
    { line: "TOKEN=$(engage-voice api-tokens create)" },
    {
      line: "engage-voice api-tokens create --username lee@example.com --platform-id my-platform",
      says: "with a direct login",
    },
  ],
  run: async (ctx) => (await import("./run.js")).create(ctx),
});
