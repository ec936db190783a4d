import { defineCommand } from "../../command.js";

export const accounts = defineCommand({
  name: "accounts",
  summary: "list the accounts the session may address",
  positionals: 0,
  options: {},
  examples: [
    { line: "engage-voice accounts" },
    { line: "engage-voice accounts --json | jq -r '.[].accountId'", says: "the IDs, one a line" },
  ],
  run: async (ctx) => (await import("./run.js")).accounts(ctx),
});
