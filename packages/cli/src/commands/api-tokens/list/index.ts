import { defineCommand } from "../../../command.js";
import { legacyAuth, legacyDetails } from "../options.js";

export const apiTokensList = defineCommand({
  name: "api-tokens list",
  summary: "list your permanent API tokens",
  positionals: 0,
  options: legacyAuth,
  details: legacyDetails,
  examples: [
    { line: "engage-voice api-tokens list" },
    {
      line: `printf '%s' "$EV_PASSWORD" | engage-voice api-tokens list --username lee@example.com --platform-id my-platform --password-stdin`,
      says: "with a direct login",
    },
  ],
  run: async (ctx) => (await import("./run.js")).list(ctx),
});
