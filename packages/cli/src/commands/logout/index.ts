import { defineCommand } from "../../command.js";

export const logout = defineCommand({
  name: "logout",
  summary: "forget the profile's session on this host",
  positionals: 0,
  options: {},
  examples: [{ line: "engage-voice logout --profile staging" }],
  run: async (ctx) => (await import("./run.js")).logout(ctx),
});
