// The options of `api-tokens delete`: read by its object (index.ts) and typed into its run.
import type { Options } from "../../../options.js";
import { legacyAuth } from "../options.js";

export const deleteOptions = {
  ...legacyAuth,
  "token-stdin": {
    type: "boolean",
    description: "read the API token from stdin (an argument shows in the process list)",
  },
  yes: { type: "boolean", short: "y", description: "do not ask for confirmation" },
} as const satisfies Options;
