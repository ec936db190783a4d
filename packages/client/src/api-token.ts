import { schemaPatterns } from "./generated/patterns.js";
import type { components } from "./generated/schema.js";

/**
 * Whether `value` is a permanent API token as the document's `PermanentApiToken` defines it,
 * `<prefix>:<uuid-like identifier>`: the one check for a token taken (to delete it, to send it as
 * `X-Auth-Token`) or received (a created one), read from the document's own pattern.
 */
export function isPermanentApiToken(value: unknown): value is components["schemas"]["PermanentApiToken"] {
  return typeof value === "string" && schemaPatterns.PermanentApiToken.test(value);
}
