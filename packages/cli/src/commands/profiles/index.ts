import { defineCommand } from "../../command.js";

export const profiles = defineCommand({
  name: "profiles",
  summary: "list the profiles, their hosts and sessions (never a token)",
  positionals: 0,
  options: {},
  examples: [
    { line: "engage-voice profiles" },
    {
      line: "engage-voice profiles --json | jq -r '.[] | select(.loggedIn) | .profile'",
      says: "the profiles logged in",
    },
  ],
  run: async (ctx) => (await import("./run.js")).profiles(ctx),
});
