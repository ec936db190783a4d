import { defineCommand } from "../../command.js";
import { usersOptions } from "./options.js";

export const users = defineCommand({
  name: "users",
  summary: "list the users (a tree, drawn on a terminal, unless --flatten)",
  positionals: 0,
  options: usersOptions,
  details: [
    "On a terminal the NAME column draws the tree with lines; in a pipe (--table) it is indented,",
    "and JSON keeps the API's nested children.",
  ],
  examples: [
    { line: "engage-voice users" },
    { line: "engage-voice users --flatten --active-only" },
    { line: "engage-voice users --json > users.json" },
  ],
  run: async (ctx) => (await import("./run.js")).users(ctx),
});
