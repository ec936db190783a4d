// What a command is: one object with its name, its help and its work. The parser, the help, the
// completion scripts and the tests read the same objects (`commands/index.ts`), so a command without
// its work does not compile. Loaded for every run: types only, nothing that runs.
import type { Context, Io } from "./context.js";
import type { GLOBAL_OPTIONS } from "./usage.js";

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** The value's placeholder in help (`URL`, `NAME`): string options only. */
  value?: string;
  description: string;
}

export type Options = Readonly<Record<string, OptionSpec>>;

/** The values `util.parseArgs` gives for these options: a string option's string, a flag's `true`. */
export type ValuesOf<O extends Options> = {
  -readonly [K in keyof O]?: O[K]["type"] extends "boolean"
    ? boolean
    : O[K]["type"] extends "string"
      ? string
      : string | boolean;
};

export interface Example {
  /** A command line as typed in a shell, starting with `engage-voice` or piping into it. */
  line: string;
  /** What it does, when the line does not say. */
  says?: string;
}

/** What every command gets: the command line as parsed, and the streams. */
export interface Invocation<O extends Options = Options> {
  io: Io;
  /** The command's own options and the global ones, as given. */
  values: ValuesOf<O> & ValuesOf<typeof GLOBAL_OPTIONS>;
  positionals: string[];
  out(text: string): void;
}

interface About<O extends Options> {
  /** `login`, `api-tokens create`, … */
  name: string;
  summary: string;
  /** What follows the command name in the usage line. */
  args?: string;
  /** Positional arguments after the command name: exactly this many (at most, with `optionalArgs`). */
  positionals: number;
  /** The arguments may also come another way (an option that reads stdin): the command checks. */
  optionalArgs?: boolean;
  /** The only values its argument may take: the parser refuses others, completion offers these. */
  choices?: readonly string[];
  options: O;
  details?: readonly string[];
  examples: readonly Example[];
}

/** A command of the API: it runs with the profile, its hosts and its session (`Context`). */
export interface SessionCommand<O extends Options = Options> extends About<O> {
  local?: undefined;
  /**
   * The work. Each command imports its code here, when it runs, so that the parser and the help load
   * no package (a method, so that a command's narrower `values` fit the array's type).
   */
  run(ctx: Context<O>): Promise<void>;
}

/**
 * A command that needs no config folder, host or session (`completion`): it runs without reading
 * them, so a profile or host setting that another command would refuse does not stop it.
 */
export interface LocalCommand<O extends Options = Options> extends About<O> {
  local: true;
  run(call: Invocation<O>): Promise<void>;
}

export type Command<O extends Options = Options> = SessionCommand<O> | LocalCommand<O>;

/** Checks a command's object against its own options (so `ctx.values` is typed by them). */
export function defineCommand<const O extends Options>(command: SessionCommand<O>): SessionCommand<O> {
  return command;
}

/** The same, for a command that needs no config folder, host or session. */
export function defineLocalCommand<const O extends Options>(command: LocalCommand<O>): LocalCommand<O> {
  return command;
}
