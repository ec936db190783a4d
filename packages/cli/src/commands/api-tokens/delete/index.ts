import { defineCommand } from "../../../command.js";
import { legacyDetails } from "../options.js";
import { deleteOptions } from "./options.js";

export const apiTokensDelete = defineCommand({
  name: "api-tokens delete",
  summary: "delete a permanent API token",
  args: "[<token>]",
  positionals: 1,
  optionalArgs: true,
  options: deleteOptions,
  details: [
    ...legacyDetails,
    "Asks for confirmation on a terminal; elsewhere --yes is required.",
    "The API token is a secret: pipe it with --token-stdin, so that it stays out of the process list",
    "and shell history. An argument works too (after --), but other users of the machine can read it",
    "in the process list while the command runs.",
  ],
  examples: [
    { line: `printf '%s' "$TOKEN" | engage-voice api-tokens delete --token-stdin --yes` },
    { line: `engage-voice api-tokens delete -- "$TOKEN"`, says: "asks first" },
  ],
  run: async (ctx) => (await import("./run.js")).remove(ctx),
});
