// What the three api-tokens commands share in their help: the direct login's options and the
// deprecated host's caveat.
import type { Options } from "../../options.js";

export const apiTokensGroup = {
  name: "api-tokens",
  summary: "create, list and delete permanent API tokens (deprecated host)",
} as const;

export const legacyAuth = {
  username: {
    type: "string",
    value: "NAME",
    description: "log in directly on the deprecated host as this user (else: the profile's session)",
  },
  "password-stdin": {
    type: "boolean",
    description: "read the password from stdin (else: a prompt that does not echo)",
  },
  "platform-id": { type: "string", value: "ID", description: "platform ID of the direct login" },
} as const satisfies Options;

export const legacyDetails = [
  "Uses the deprecated host (--legacy-base-url), which will stop working at a date not yet announced.",
  "Authenticates with the profile's session (run engage-voice login first), or with a direct login:",
  "--username and --platform-id, the password piped with --password-stdin or typed at a prompt.",
];
