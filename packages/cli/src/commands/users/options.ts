// The options of `users`: read by its object (index.ts) and typed into its run.
import type { Options } from "../../options.js";

export const usersOptions = {
  flatten: { type: "boolean", description: "the users as a flat list, in tree order" },
  "active-only": { type: "boolean", description: "leave disabled users out" },
} as const satisfies Options;
