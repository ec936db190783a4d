// The options of `login`: read by its object (index.ts) and typed into its run.
import { ENV } from "../../env.js";
import type { Options } from "../../options.js";

export const loginOptions = {
  "rc-token-stdin": {
    type: "boolean",
    description: `read the RingCentral access token from stdin (else env ${ENV.parentToken}, else a prompt)`,
  },
} as const satisfies Options;
