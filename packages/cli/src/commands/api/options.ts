// The options of `api`: read by its object (index.ts) and typed into its run.
import type { Options } from "../../options.js";

export const apiOptions = {
  "raw-field": {
    type: "string",
    short: "f",
    value: "KEY=VALUE",
    multiple: true,
    description: "a string field, as written (again for more); key[sub]= and key[]= nest in a body",
  },
  field: {
    type: "string",
    short: "F",
    value: "KEY=VALUE",
    multiple: true,
    description: "a typed field: true, false, null and integers as JSON, @FILE a file's text, @- stdin's",
  },
  input: {
    type: "string",
    value: "FILE",
    description: "the request body from FILE, as it is (- for stdin); the fields then go to the query",
  },
  include: {
    type: "boolean",
    short: "i",
    description: "print the answer's status line and headers before its body",
  },
  "allow-unknown-path": {
    type: "boolean",
    description: "send a method and path the document does not have (same host rules, same credential)",
  },
  "api-token-stdin": {
    type: "boolean",
    description: "read a permanent API token from stdin for the deprecated host (X-Auth-Token)",
  },
} as const satisfies Options;
