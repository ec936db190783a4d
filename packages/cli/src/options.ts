// The options of the command line: what an option is, and the global ones every command takes. Loaded
// for every run, and read by the parser, the help, the completion scripts and the commands' types.
import { ENV } from "./env.js";

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** The value's placeholder in help (`URL`, `NAME`): string options only. */
  value?: string;
  /** May be given more than once (`-f a=1 -f b=2`): its value is then the list, in order. */
  multiple?: boolean;
  description: string;
}

export type Options = Readonly<Record<string, OptionSpec>>;

/** The values `util.parseArgs` gives for these options: a string option's string, a flag's `true`. */
export type ValuesOf<O extends Options> = {
  -readonly [K in keyof O]?: O[K]["type"] extends "boolean"
    ? boolean
    : O[K]["multiple"] extends true
      ? string[]
      : O[K]["type"] extends "string"
        ? string
        : string | boolean;
};

/** What `util.parseArgs` gives, before a command's own options narrow it. */
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

export const GLOBAL_OPTIONS = {
  "base-url": {
    type: "string",
    value: "URL",
    description: `contact-center host (default: the profile's, else https://engage.ringcentral.com; env ${ENV.baseUrl})`,
  },
  "legacy-base-url": {
    type: "string",
    value: "URL",
    description: `deprecated host, of api-tokens and some api paths (default: the profile's, else https://portal.vacd.biz; env ${ENV.legacyBaseUrl})`,
  },
  profile: {
    type: "string",
    value: "NAME",
    description: `profile to use (default "default"; env ${ENV.profile})`,
  },
  json: { type: "boolean", description: "JSON on stdout (the default when stdout is not a terminal)" },
  table: { type: "boolean", description: "a table on stdout even when it is not a terminal" },
  timeout: {
    type: "string",
    value: "SECONDS",
    description: `deadline of the whole command, retries and waits included (default 30; env ${ENV.timeout})`,
  },
  debug: {
    type: "boolean",
    description: `log each request (no query, no secret) and show stack traces (also ${ENV.log}=debug)`,
  },
  help: { type: "boolean", short: "h", description: "show help" },
  version: { type: "boolean", short: "V", description: "show the version" },
} as const satisfies Options;
