// The command line: every command, its options and its help text, parsed with Node's own
// `util.parseArgs` (no dependency). Loaded for every run, so it imports nothing else.
import { parseArgs } from "node:util";
import { usageError } from "./exit.js";

interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  value?: string;
  description: string;
}

export interface CommandSpec {
  /** `login`, `api-tokens create`, … */
  name: string;
  summary: string;
  /** What follows the command name in the usage line. */
  args?: string;
  /** Positional arguments after the command name: exactly this many (at most, with `optionalArgs`). */
  positionals: number;
  /** The arguments may also come another way (an option that reads stdin): the command checks. */
  optionalArgs?: boolean;
  options: Record<string, OptionSpec>;
  details?: string[];
}

export const ENV = {
  parentToken: "ENGAGE_VOICE_RC_TOKEN",
  profile: "ENGAGE_VOICE_PROFILE",
  baseUrl: "ENGAGE_VOICE_BASE_URL",
  legacyBaseUrl: "ENGAGE_VOICE_LEGACY_BASE_URL",
  configDir: "ENGAGE_VOICE_CONFIG_DIR",
  log: "ENGAGE_VOICE_LOG",
  timeout: "ENGAGE_VOICE_TIMEOUT",
} as const;

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  "base-url": {
    type: "string",
    value: "URL",
    description: `contact-center host (default: the profile's, else https://engage.ringcentral.com; env ${ENV.baseUrl})`,
  },
  "legacy-base-url": {
    type: "string",
    value: "URL",
    description: `deprecated host for api-tokens (default: the profile's, else https://portal.vacd.biz; env ${ENV.legacyBaseUrl})`,
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
    description: `deadline of each request, retries and waits included (default 30; env ${ENV.timeout})`,
  },
  debug: {
    type: "boolean",
    description: `log each request (no query, no secret) and show stack traces (also ${ENV.log}=debug)`,
  },
  help: { type: "boolean", short: "h", description: "show help" },
  version: { type: "boolean", short: "V", description: "show the version" },
};

const legacyAuth: Record<string, OptionSpec> = {
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
};

const legacyDetails = [
  "Uses the deprecated host (--legacy-base-url), which will stop working at a date not yet announced.",
  "Authenticates with the profile's session (run engage-voice login first), or with a direct login:",
  "--username and --platform-id, the password piped with --password-stdin or typed at a prompt.",
];

export const COMMANDS: CommandSpec[] = [
  {
    name: "login",
    summary: "exchange a RingCentral access token for a session, kept in the profile",
    positionals: 0,
    options: {
      "rc-token-stdin": {
        type: "boolean",
        description: `read the RingCentral access token from stdin (else env ${ENV.parentToken}, else a prompt)`,
      },
    },
    details: [
      "The RingCentral (parent-platform) access token is never taken as a flag, which would land in",
      `shell history: pipe it with --rc-token-stdin, set ${ENV.parentToken}, or type it at the prompt.`,
      "The session (access and refresh token) is kept in the config directory, mode 0600, per profile",
      "and host; the profile also remembers --base-url and --legacy-base-url.",
    ],
  },
  {
    name: "token",
    summary: "print a valid access token (renewed as needed), and nothing else",
    positionals: 0,
    options: {},
    details: [
      "Prints the bare token even when stdout is not a terminal, so that this works:",
      '  curl -H "Authorization: Bearer $(engage-voice token)" https://engage.ringcentral.com/voice/api/v1/admin/accounts',
      "--json prints {accessToken, expiresAt} instead.",
    ],
  },
  {
    name: "accounts",
    summary: "list the accounts the session may address",
    positionals: 0,
    options: {},
  },
  {
    name: "users",
    summary: "list the users (a tree, indented, unless --flatten)",
    positionals: 0,
    options: {
      flatten: { type: "boolean", description: "the users as a flat list, in tree order" },
      "active-only": { type: "boolean", description: "leave disabled users out" },
    },
  },
  {
    name: "api-tokens create",
    summary: "create a permanent API token and print it",
    positionals: 0,
    options: legacyAuth,
    details: [...legacyDetails, "Prints the bare token unless --json."],
  },
  {
    name: "api-tokens list",
    summary: "list your permanent API tokens",
    positionals: 0,
    options: legacyAuth,
    details: legacyDetails,
  },
  {
    name: "api-tokens delete",
    summary: "delete a permanent API token",
    args: "[<token>]",
    positionals: 1,
    optionalArgs: true,
    options: {
      ...legacyAuth,
      "token-stdin": {
        type: "boolean",
        description: "read the API token from stdin (an argument shows in the process list)",
      },
      yes: { type: "boolean", short: "y", description: "do not ask for confirmation" },
    },
    details: [
      ...legacyDetails,
      "Asks for confirmation on a terminal; elsewhere --yes is required.",
      "The API token is a secret: pipe it, so that it stays out of the process list and shell history:",
      "  printf '%s' \"$TOKEN\" | engage-voice api-tokens delete --token-stdin --yes",
      'An argument works too (after --: engage-voice api-tokens delete -- "$TOKEN"), but other users of',
      "the machine can read it in the process list while the command runs.",
    ],
  },
  {
    name: "logout",
    summary: "forget the profile's session on this host",
    positionals: 0,
    options: {},
  },
  {
    name: "profiles",
    summary: "list the profiles, their hosts and sessions (never a token)",
    positionals: 0,
    options: {},
  },
];

const GROUPS: Record<string, string> = {
  "api-tokens": "create, list and delete permanent API tokens (deprecated host)",
};

export const EXIT_CODES = [
  "Exit codes:",
  "  0  done",
  "  1  the API refused or failed, or no answer (network)",
  "  2  usage error, or a confirmation declined: nothing was sent",
  "  3  not logged in, or the session is over: run engage-voice login",
];

function optionLines(options: Record<string, OptionSpec>): string[] {
  return Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : "    "}--${name}${spec.value ? ` ${spec.value}` : ""}`;
    return `  ${flag.padEnd(26)} ${spec.description}`;
  });
}

export function mainHelp(): string {
  const names = [...new Set(COMMANDS.map((c) => c.name.split(" ")[0] as string))];
  const lines = [
    "engage-voice: the token chores of the Voice Contact-Center API (RingCentral Engage Voice / RingCX)",
    "",
    "Usage: engage-voice <command> [options]",
    "",
    "Commands:",
    ...names.map((name) => {
      const spec = COMMANDS.find((c) => c.name === name);
      const summary = spec?.summary ?? GROUPS[name] ?? "";
      return `  ${name.padEnd(12)} ${summary}`;
    }),
    `  ${"sandbox".padEnd(12)} start the stateful sandbox of both hosts on 127.0.0.1 (its own flags: sandbox --help)`,
    "",
    "Global options (every command):",
    ...optionLines(GLOBAL_OPTIONS),
    "",
    ...EXIT_CODES,
    "",
    "Run engage-voice <command> --help for a command's options.",
  ];
  return `${lines.join("\n")}\n`;
}

export function groupHelp(group: string): string {
  const lines = [
    `Usage: engage-voice ${group} <command> [options]`,
    "",
    `${GROUPS[group] ?? ""}`,
    "",
    "Commands:",
    ...COMMANDS.filter((c) => c.name.startsWith(`${group} `)).map(
      (c) => `  ${`${c.name.slice(group.length + 1)}${c.args ? ` ${c.args}` : ""}`.padEnd(16)} ${c.summary}`,
    ),
    "",
    `Run engage-voice ${group} <command> --help for its options.`,
  ];
  return `${lines.join("\n")}\n`;
}

export function commandHelp(spec: CommandSpec): string {
  const own = optionLines(spec.options);
  const lines = [
    `Usage: engage-voice ${spec.name}${spec.args ? ` ${spec.args}` : ""} [options]`,
    "",
    `${spec.summary[0]?.toUpperCase()}${spec.summary.slice(1)}.`,
    ...(spec.details ? ["", ...spec.details] : []),
    ...(own.length ? ["", "Options:", ...own] : []),
    "",
    "Global options:",
    ...optionLines(GLOBAL_OPTIONS),
    "",
    ...EXIT_CODES,
  ];
  return `${lines.join("\n")}\n`;
}

export type OptionValues = Record<string, string | boolean | undefined>;

export type Parsed =
  | { kind: "help"; text: string }
  | { kind: "version" }
  | { kind: "run"; spec: CommandSpec; values: OptionValues; positionals: string[] };

/** Flags that would put a secret in shell history: refused with the safe way to give it. */
const REFUSED: Record<string, string> = {
  "--rc-token": "pipe the token with --rc-token-stdin or set ENGAGE_VOICE_RC_TOKEN",
  "--rc-access-token": "pipe the token with --rc-token-stdin or set ENGAGE_VOICE_RC_TOKEN",
  "--token": "pipe the token with --rc-token-stdin or set ENGAGE_VOICE_RC_TOKEN",
  "--password": "pipe it with --password-stdin, or leave it out to be asked",
};

/** An option's name as typed, for a message: only when it looks like one (never a value). */
function optionName(arg: string): string {
  const name = arg.split("=")[0] ?? "";
  return /^--?[A-Za-z][A-Za-z0-9-]{0,30}$/.test(name) ? `'${name}'` : "an option";
}

/** Parses the arguments after `engage-voice`. Throws a usage `CliError`; never quotes a value. */
export function parseCommandLine(args: readonly string[]): Parsed {
  const dashDash = args.indexOf("--");
  for (const arg of dashDash === -1 ? args : args.slice(0, dashDash)) {
    const name = arg.split("=")[0] ?? "";
    const hint = REFUSED[name];
    if (hint) {
      throw usageError(`${name} is not accepted: it would land in shell history; ${hint}`);
    }
  }

  // The command is the leading positional words, wherever the options are: a loose first pass
  // with every option of every command knows which options take a value.
  const everyOption = Object.assign({}, GLOBAL_OPTIONS, ...COMMANDS.map((c) => c.options));
  let words: string[];
  try {
    words = parseArgs({
      args: [...args],
      options: everyOption,
      strict: false,
      allowPositionals: true,
    }).positionals;
  } catch {
    words = [];
  }
  let spec: CommandSpec | undefined;
  let group: string | undefined;
  const [first, second] = words;
  if (first === "help") {
    const topic = words.slice(1).join(" ");
    if (!topic) {
      return { kind: "help", text: mainHelp() };
    }
    const found = COMMANDS.find((c) => c.name === topic);
    if (found) {
      return { kind: "help", text: commandHelp(found) };
    }
    if (GROUPS[topic]) {
      return { kind: "help", text: groupHelp(topic) };
    }
    throw usageError("Unknown command after help: run engage-voice --help for the list");
  }
  if (first !== undefined) {
    if (GROUPS[first]) {
      group = first;
      spec = second === undefined ? undefined : COMMANDS.find((c) => c.name === `${first} ${second}`);
      if (second !== undefined && !spec) {
        throw usageError(`Unknown command: engage-voice ${first} takes ${groupCommands(first)}`);
      }
    } else {
      spec = COMMANDS.find((c) => c.name === first);
      if (!spec) {
        throw usageError(
          `Unknown command${/^[a-z-]{1,20}$/.test(first) ? ` '${first}'` : ""}: run engage-voice --help for the list`,
        );
      }
    }
  }

  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { ...GLOBAL_OPTIONS, ...(spec?.options ?? {}) },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const offending = args.find((arg) => {
        if (!arg.startsWith("-") || arg === "--") {
          return false;
        }
        const name = (arg.split("=")[0] ?? "").replace(/^--?/, "");
        return !(name in GLOBAL_OPTIONS || name in (spec?.options ?? {}));
      });
      const where = spec ? `engage-voice ${spec.name}` : "engage-voice";
      throw usageError(
        `Unknown option ${optionName(offending ?? "")} for ${where}: run ${where} --help for its options`,
      );
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      // Node's message names the option only: "Option '--profile <value>' argument missing".
      throw usageError(`${(error as Error).message.split(".")[0]}: run engage-voice --help`);
    }
    throw usageError("The command line could not be read: run engage-voice --help");
  }
  const values = parsed.values as OptionValues;

  if (values.version) {
    return { kind: "version" };
  }
  if (values.help || (!spec && !group)) {
    if (spec) {
      return { kind: "help", text: commandHelp(spec) };
    }
    if (group) {
      return { kind: "help", text: groupHelp(group) };
    }
    if (words.length === 0) {
      return { kind: "help", text: mainHelp() };
    }
  }
  if (!spec) {
    if (group) {
      throw usageError(`engage-voice ${group} needs a command: ${groupCommands(group)}`);
    }
    throw usageError("No command: run engage-voice --help for the list");
  }
  const positionals = parsed.positionals.slice(spec.name.split(" ").length);
  if (spec.optionalArgs ? positionals.length > spec.positionals : positionals.length !== spec.positionals) {
    throw usageError(
      spec.positionals === 0
        ? `engage-voice ${spec.name} takes no arguments: run engage-voice ${spec.name} --help`
        : `engage-voice ${spec.name} takes ${spec.args}: run engage-voice ${spec.name} --help`,
    );
  }
  if (values.json && values.table) {
    throw usageError("--json and --table cannot go together");
  }
  return { kind: "run", spec, values, positionals };
}

function groupCommands(group: string): string {
  return COMMANDS.filter((c) => c.name.startsWith(`${group} `))
    .map((c) => c.name.slice(group.length + 1))
    .join(", ");
}
