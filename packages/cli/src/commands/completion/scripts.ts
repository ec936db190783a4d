// The completion scripts, drawn from the command array: each holds every command, option and choice,
// so completing runs no engage-voice process. Options that take a value skip that value when the
// scripts find the command words, so `--profile ci users` completes as `users`.
import type { CommandTable, CompletionWords, Word } from "../../command.js";
import { GLOBAL_OPTIONS, type Options } from "../../options.js";
import { firstWords } from "../../words.js";

/** What may come next after each sequence of command words (`""`, `api-tokens`, `users`, …). */
interface Table {
  /** Command words by what was typed before: the first words, a group's commands, help topics, choices. */
  words: [path: string, words: Word[]][];
  /** Options by command name; every other path (`""`, a group) offers the global options. */
  options: [path: string, options: Options][];
  /** Options that take a value, as typed (`--profile`). */
  valued: string[];
}

/**
 * The words of the commands' arguments (`api`'s methods and paths), which their `completions()`
 * load: the scripts take them from here, so that the parser's objects import no package.
 */
export async function argumentWords(commandLine: CommandTable): Promise<CompletionWords> {
  const lists = await Promise.all(commandLine.commands.map((command) => command.completions?.() ?? []));
  return lists.flat();
}

function table(commandLine: CommandTable, args: CompletionWords): Table {
  const { commands, groups, handedOver } = commandLine;
  const top = firstWords(commandLine);
  const words: [string, Word[]][] = [["", top]];
  for (const group of groups) {
    words.push([
      group.name,
      commands
        .filter((c) => c.name.startsWith(`${group.name} `))
        .map((c) => ({
          name: c.name.slice(group.name.length + 1),
          summary: c.summary,
        })),
    ]);
  }
  words.push(["help", top.filter((word) => word.name !== "help" && word.name !== handedOver.name)]);
  for (const command of commands) {
    if (command.choices) {
      words.push([command.name, command.choices.map((name) => ({ name, summary: name }))]);
    }
  }
  for (const [path, list] of args) {
    words.push([path, [...list]]);
  }
  const options = commands.map((c): [string, Options] => [c.name, { ...c.options, ...GLOBAL_OPTIONS }]);
  const valued = new Set<string>();
  for (const [, all] of [["", GLOBAL_OPTIONS] as const, ...options]) {
    for (const [name, spec] of Object.entries(all)) {
      if (spec.type === "string") {
        valued.add(`--${name}`);
        if (spec.short) {
          valued.add(`-${spec.short}`);
        }
      }
    }
  }
  return { words, options, valued: [...valued] };
}

const flags = (options: Options) =>
  Object.entries(options).flatMap(([name, spec]) => [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])]);

/** A word in single quotes for bash and zsh. */
const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function bashScript(commandLine: CommandTable, args: CompletionWords = []): string {
  const { handedOver } = commandLine;
  const { words, options, valued } = table(commandLine, args);
  const lines = [
    "# engage-voice completion for bash. In this shell: source <(engage-voice completion bash)",
    "# In every shell: engage-voice completion bash > ~/.local/share/bash-completion/completions/engage-voice",
    "_engage_voice() {",
    `  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} typed="" word i candidates=""`,
    "  case $prev in",
    `    ${valued.join("|")}) return ;;`,
    "  esac",
    "  for ((i = 1; i < COMP_CWORD; i++)); do",
    `    word=\${COMP_WORDS[i]}`,
    "    case $word in",
    "      --) return ;;",
    `      ${valued.join("|")}) ((i++)) ;;`,
    "      -*) ;;",
    `      *) typed+=\${typed:+ }$word ;;`,
    "    esac",
    "  done",
    "  if [[ $cur == -* ]]; then",
    '    case "$typed" in',
    `      ${handedOver.name}*) return ;;`,
    ...options.map(([path, all]) => `      ${quoted(path)}) candidates=${quoted(flags(all).join(" "))} ;;`),
    `      *) candidates=${quoted(flags(GLOBAL_OPTIONS).join(" "))} ;;`,
    "    esac",
    "  else",
    '    case "$typed" in',
    ...words.map(
      ([path, list]) => `      ${quoted(path)}) candidates=${quoted(list.map((w) => w.name).join(" "))} ;;`,
    ),
    "    esac",
    "  fi",
    '  COMPREPLY=($(compgen -W "$candidates" -- "$cur"))',
    "}",
    "complete -F _engage_voice engage-voice",
  ];
  return `${lines.join("\n")}\n`;
}

/** `name:description` for zsh's `_describe`, quoted. */
const described = (name: string, summary: string) => quoted(`${name.replace(/:/g, "\\:")}:${summary}`);

const describedFlags = (options: Options) =>
  Object.entries(options)
    .flatMap(([name, spec]) => [
      described(`--${name}`, spec.description),
      ...(spec.short ? [described(`-${spec.short}`, spec.description)] : []),
    ])
    .join(" ");

export function zshScript(commandLine: CommandTable, args: CompletionWords = []): string {
  const { handedOver } = commandLine;
  const { words, options, valued } = table(commandLine, args);
  const lines = [
    "#compdef engage-voice",
    "# engage-voice completion for zsh. In this shell (after compinit): source <(engage-voice completion zsh)",
    `# In every shell: engage-voice completion zsh > "\${fpath[1]}/_engage_voice", then start a new shell.`,
    "_engage_voice() {",
    "  local -a typed candidates",
    "  local word i skip=0",
    "  for ((i = 2; i < CURRENT; i++)); do",
    `    word=\${words[i]}`,
    "    if ((skip)); then skip=0; continue; fi",
    "    case $word in",
    "      --) return 1 ;;",
    `      ${valued.join("|")}) skip=1 ;;`,
    "      -*) ;;",
    "      *) typed+=($word) ;;",
    "    esac",
    "  done",
    "  ((skip)) && return 1",
    `  local key="\${(j: :)typed}"`,
    `  if [[ \${words[CURRENT]} == -* ]]; then`,
    "    case $key in",
    `      ${handedOver.name}*) return 1 ;;`,
    ...options.map(([path, all]) => `      ${quoted(path)}) candidates=(${describedFlags(all)}) ;;`),
    `      *) candidates=(${describedFlags(GLOBAL_OPTIONS)}) ;;`,
    "    esac",
    "    _describe -t options option candidates",
    "  else",
    "    case $key in",
    ...words.map(
      ([path, list]) =>
        `      ${quoted(path)}) candidates=(${list.map((w) => described(w.name, w.summary)).join(" ")}) ;;`,
    ),
    "      *) return 1 ;;",
    "    esac",
    "    _describe -t commands command candidates",
    "  fi",
    "}",
    `if [[ "\${funcstack[1]}" == _engage_voice ]]; then`,
    '  _engage_voice "$@"',
    "else",
    "  compdef _engage_voice engage-voice",
    "fi",
  ];
  return `${lines.join("\n")}\n`;
}

/** A word in single quotes for fish, where only `\` and `'` are escaped inside them. */
const fishQuoted = (text: string) => `'${text.replace(/[\\']/g, (char) => `\\${char}`)}'`;

export function fishScript(commandLine: CommandTable, args: CompletionWords = []): string {
  const { handedOver } = commandLine;
  const { words } = table(commandLine, args);
  const top = words.find(([path]) => path === "")?.[1] ?? [];
  /** fish's condition for "the command words typed so far are `path`". */
  const after = (path: string) =>
    path
      .split(" ")
      .map((part) => `__fish_seen_subcommand_from ${part}`)
      .join("; and ");
  const option = (condition: string | undefined, name: string, spec: Options[string]) =>
    [
      "complete -c engage-voice",
      ...(condition ? [`-n ${fishQuoted(condition)}`] : []),
      `-l ${name}`,
      ...(spec.short ? [`-s ${spec.short}`] : []),
      ...(spec.type === "string" ? ["-r"] : []),
      `-d ${fishQuoted(spec.description)}`,
    ].join(" ");
  const lines = [
    "# engage-voice completion for fish. In this shell: engage-voice completion fish | source",
    "# In every shell: engage-voice completion fish > ~/.config/fish/completions/engage-voice.fish",
    "complete -c engage-voice -f",
    ...top.map(
      (word) =>
        `complete -c engage-voice -n __fish_use_subcommand -a ${fishQuoted(word.name)} -d ${fishQuoted(word.summary)}`,
    ),
    ...words
      .filter(([path]) => path !== "")
      .flatMap(([path, list]) => {
        const others = list.map((w) => w.name).join(" ");
        const condition = `${after(path)}; and not __fish_seen_subcommand_from ${others}`;
        return list.map(
          (word) =>
            `complete -c engage-voice -n ${fishQuoted(condition)} -a ${fishQuoted(word.name)} -d ${fishQuoted(word.summary)}`,
        );
      }),
    ...Object.entries(GLOBAL_OPTIONS).map(([name, spec]) =>
      option(`not __fish_seen_subcommand_from ${handedOver.name}`, name, spec),
    ),
    ...commandLine.commands.flatMap((command) =>
      Object.entries(command.options).map(([name, spec]) => option(after(command.name), name, spec)),
    ),
  ];
  return `${lines.join("\n")}\n`;
}
