import { defineCommand } from "../../command.js";

export const token = defineCommand({
  name: "token",
  summary: "print a valid access token (renewed as needed), and nothing else",
  positionals: 0,
  options: {},
  details: [
    "Prints the bare token even when stdout is not a terminal, so that $(engage-voice token) works.",
    "--json prints {accessToken, expiresAt} instead.",
  ],
  examples: [
    {
      line: 'curl -H "Authorization: Bearer $(engage-voice token)" https://engage.ringcentral.com/voice/api/v1/admin/accounts',
    },
    { line: "engage-voice token --json --profile staging", says: "with its expiry" },
  ],
  run: async (ctx) => (await import("./run.js")).token(ctx),
});
