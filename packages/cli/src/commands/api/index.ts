import { defineCommand } from "../../command.js";
import { apiOptions } from "./options.js";

export const api = defineCommand({
  name: "api",
  summary: "send any operation of the API with the profile's credential, and print the answer",
  args: "[METHOD] <path>",
  positionals: 2,
  optionalArgs: true,
  options: apiOptions,
  details: [
    "The host comes from the path: the contact-center host (--base-url) with the profile's access token,",
    "renewed as needed; the deprecated host (--legacy-base-url) with the API token of ENGAGE_VOICE_API_TOKEN",
    "or --api-token-stdin (X-Auth-Token), else with the profile's access token. Write path parameters in",
    "the path (/voice/api/v1/admin/token/<token>). Without arguments, lists the document's operations.",
    "",
    "METHOD may be left out for a GET without fields. Fields go to the query string for GET, DELETE,",
    "HEAD and OPTIONS, and into a JSON body for POST, PUT and PATCH (a form for the document's form",
    "operations); with --input they go to the query string. A method and path the document does not have",
    "is refused, with the nearest, unless --allow-unknown-path: a path below one of the deprecated host's",
    "then goes there, any other to the contact-center host.",
    "",
    "Prints the answer's body: JSON indented on a terminal, on one line in a pipe. An answer that is not",
    "2xx ends with exit 1, its body on stderr as JSON; a refused session with exit 3.",
  ],
  examples: [
    { line: "engage-voice api", says: "the operations of the document" },
    { line: "engage-voice api /voice/api/v1/admin/accounts" },
    { line: "engage-voice api GET /voice/api/v1/admin/users -F flatten=true -F activeOnly=true" },
    { line: "engage-voice api POST /voice/api/v1/admin/token", says: "create a permanent API token" },
    {
      line: `printf '%s' "$API_TOKEN" | engage-voice api GET /voice/api/v1/admin/token --api-token-stdin`,
      says: "the deprecated host with a permanent API token",
    },
    {
      line: "engage-voice api PUT /voice/api/v1/admin/accounts/99990001/settings --input settings.json --allow-unknown-path",
      says: "an operation the document does not have",
    },
    {
      line: "engage-voice api -i GET /voice/api/v1/admin/accounts",
      says: "with the status line and headers",
    },
  ],
  run: async (ctx) => (await import("./run.js")).api(ctx),
  completions: async () => (await import("./words.js")).apiWords(),
});
