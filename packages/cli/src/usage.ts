// The command line: parsed with Node's own `util.parseArgs` (no dependency) against the commands of
// `commands/index.ts`, and the help drawn from them. Loaded for every run: nothing here imports a package.
import { parseArgs } from "node:util";
import type { Command, Example } from "./command.js";
import { COMMAND_TABLE, COMMANDS, GROUPS } from "./commands/index.js";
import { usageError } from "./exit.js";
import { GLOBAL_OPTIONS, type OptionSpec, type Options, type OptionValues } from "./options.js";
import { closest } from "./suggest.js";
import { firstWords } from "./words.js";

export const EXIT_CODES = [
  "Exit codes:",
  "  0  done",
  "  1  the API refused or failed, or no answer (network)",
  "  2  usage error, or a confirmation declined: nothing was sent",
  "  3  not logged in, or the session is over: run engage-voice login",
];

function optionLines(options: Options): string[] {
  return Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : "    "}--${name}${spec.value ? ` ${spec.value}` : ""}`;
    return `  ${flag.padEnd(26)} ${spec.description}`;
  });
}

function exampleLines(examples: readonly Example[]): string[] {
  return examples.flatMap((example) =>
    example.says ? [`  # ${example.says}`, `  $ ${example.line}`] : [`  $ ${example.line}`],
  );
}

const groupOf = (name: string) => GROUPS.find((group) => group.name === name);
const commandNamed = (name: string) => COMMANDS.find((command) => command.name === name);
/** `api-tokens create` → `create`, for the commands of a group. */
const inGroup = (group: string) =>
  COMMANDS.filter((c) => c.name.startsWith(`${group} `)).map((c) => ({
    command: c,
    word: c.name.slice(group.length + 1),
  }));

export function mainHelp(): string {
  const lines = [
    "engage-voice: the token chores of the Voice Contact-Center API (RingCentral Engage Voice / RingCX)",
    "",
    "Usage: engage-voice <command> [options]",
    "",
    "Commands:",
    ...firstWords(COMMAND_TABLE)
      .filter(({ name }) => name !== "help")
      .map(({ name, summary }) => `  ${name.padEnd(12)} ${summary}`),
    "",
    "Global options (every command):",
    ...optionLines(GLOBAL_OPTIONS),
    "",
    ...EXIT_CODES,
    "",
    "Run engage-voice <command> --help for a command's options and examples.",
  ];
  return `${lines.join("\n")}\n`;
}

export function groupHelp(group: string): string {
  const lines = [
    `Usage: engage-voice ${group} <command> [options]`,
    "",
    `${groupOf(group)?.summary ?? ""}`,
    "",
    "Commands:",
    ...inGroup(group).map(
      ({ command, word }) =>
        `  ${`${word}${command.args ? ` ${command.args}` : ""}`.padEnd(16)} ${command.summary}`,
    ),
    "",
    `Run engage-voice ${group} <command> --help for its options.`,
  ];
  return `${lines.join("\n")}\n`;
}

export function commandHelp(spec: Command): string {
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
    ...(spec.examples.length ? ["", "Examples:", ...exampleLines(spec.examples)] : []),
    "",
    ...EXIT_CODES,
  ];
  return `${lines.join("\n")}\n`;
}

export type Parsed =
  | { kind: "help"; text: string }
  | { kind: "version" }
  | { kind: "run"; spec: Command; values: OptionValues; positionals: string[] };

/** Flags that would put a secret in shell history: refused with the safe way to give it. */
const REFUSED: Record<string, string> = {
  "--rc-token": "pipe the token with --rc-token-stdin or set ENGAGE_VOICE_RC_TOKEN",
  "--rc-access-token": "pipe the token with --rc-token-stdin or set ENGAGE_VOICE_RC_TOKEN",
  "--token": "pipe the token with --rc-token-stdin or set ENGAGE_VOICE_RC_TOKEN",
  "--password": "pipe it with --password-stdin, or leave it out to be asked",
};

/** A word a user typed, for a message: only when it looks like a name (never a value). */
const NAME_LIKE = /^--?[A-Za-z][A-Za-z0-9-]{0,30}$/;

/** An option's name as typed, for a message: only when it looks like one (never a value). */
function optionName(arg: string): string {
  const name = arg.split("=")[0] ?? "";
  return NAME_LIKE.test(name) ? `'${name}'` : "an option";
}

/**
 * ` (did you mean X?)` when a known word is near the one typed, else nothing; never the word itself
 * (`sandbox` after an option is known, and still not a command the parser runs).
 */
function didYouMean(typed: string, known: readonly string[]): string {
  const near = closest(
    typed,
    known.filter((word) => word !== typed),
  );
  return near === undefined ? "" : ` (did you mean ${near}?)`;
}

/** The long option nearest to an unknown one, among those the command takes. */
function optionHint(arg: string, options: Options): string {
  const name = arg.split("=")[0] ?? "";
  if (!NAME_LIKE.test(name) || !name.startsWith("--")) {
    return "";
  }
  const near = closest(name.slice(2), Object.keys(options));
  return near === undefined ? "" : ` (did you mean --${near}?)`;
}

/** A command word as typed, quoted for a message only when it cannot be a value someone pasted. */
const quotedWord = (word: string) => (/^[a-z-]{1,20}$/.test(word) ? ` '${word}'` : "");

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
  const everyOption: Record<string, OptionSpec> = Object.assign(
    {},
    GLOBAL_OPTIONS,
    ...COMMANDS.map((c) => c.options),
  );
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
  let spec: Command | undefined;
  let group: string | undefined;
  const [first, second] = words;
  const topWords = firstWords(COMMAND_TABLE).map((word) => word.name);
  if (first === "help") {
    const topic = words.slice(1).join(" ");
    if (!topic) {
      return { kind: "help", text: mainHelp() };
    }
    const found = commandNamed(topic);
    if (found) {
      return { kind: "help", text: commandHelp(found) };
    }
    if (groupOf(topic)) {
      return { kind: "help", text: groupHelp(topic) };
    }
    const near = words.length === 2 ? didYouMean(topic, topWords) : "";
    throw usageError(`Unknown command after help${near}: run engage-voice --help for the list`);
  }
  if (first !== undefined) {
    if (groupOf(first)) {
      group = first;
      spec = second === undefined ? undefined : commandNamed(`${first} ${second}`);
      if (second !== undefined && !spec) {
        const known = inGroup(first).map(({ word }) => word);
        throw usageError(
          `Unknown command: engage-voice ${first} takes ${known.join(", ")}${didYouMean(second, known)}`,
        );
      }
    } else {
      spec = commandNamed(first);
      if (!spec) {
        throw usageError(
          `Unknown command${quotedWord(first)}${didYouMean(first, topWords)}: run engage-voice --help for the list`,
        );
      }
    }
  }

  const options: Options = { ...GLOBAL_OPTIONS, ...(spec?.options ?? {}) };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...args],
      options,
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
        return !(name in options);
      });
      const where = spec ? `engage-voice ${spec.name}` : "engage-voice";
      throw usageError(
        `Unknown option ${optionName(offending ?? "")} for ${where}${optionHint(offending ?? "", options)}: run ${where} --help for its options`,
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
  const choices = spec.choices ?? [];
  const unknownChoice = spec.choices && positionals.find((value) => !choices.includes(value));
  if (unknownChoice !== undefined) {
    throw usageError(
      `engage-voice ${spec.name} takes ${choices.join(", ")}${didYouMean(unknownChoice, choices)}: run engage-voice ${spec.name} --help`,
    );
  }
  if (values.json && values.table) {
    throw usageError("--json and --table cannot go together");
  }
  return { kind: "run", spec, values, positionals };
}

function groupCommands(group: string): string {
  return inGroup(group)
    .map(({ word }) => word)
    .join(", ");
}
