// What a command is: one object with its name, its help and its work. The parser, the help, the
// completion scripts and the tests read the same objects (`commands/index.ts`), so a command without
// its work does not compile. Loaded for every run: types only, nothing that runs.
import type { Logger } from "@engage-voice/auth";
import type { TokenStore } from "@engage-voice/auth/node";
import type { ConfigFile, Platform } from "./config.js";
import type { CommandDeadline } from "./deadline.js";
import type { Situation } from "./explain.js";
import type { GLOBAL_OPTIONS, Options, ValuesOf } from "./options.js";
import type { InStream, OutStream, Spinner } from "./terminal.js";

export interface Example {
  /** A command line as typed in a shell, starting with `engage-voice` or piping into it. */
  line: string;
  /** What it does, when the line does not say. */
  says?: string;
}

export interface Io extends Platform {
  stdin: InStream;
  stdout: OutStream;
  stderr: OutStream;
}

/** What a command of the API gets: its invocation, the resolved profile and hosts, and the means of its calls. */
export interface Context<O extends Options = Options> extends Invocation<O> {
  spec: Command;
  profile: string;
  baseUrl: string;
  legacyBaseUrl: string;
  dir: string;
  config: ConfigFile;
  /** JSON on stdout: `--json`, or stdout is not a terminal and `--table` was not given. */
  json: boolean;
  debug: boolean;
  spinner: Spinner;
  fetch: typeof fetch;
  logger: Logger;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** `--timeout` in ms, as given: each call gets it too, so that a long one is not cut at the default. */
  timeoutMs: number | undefined;
  /** The one deadline of the whole command (`--timeout`): `fetch` and `sleep` end with it. */
  deadline: CommandDeadline;
  /** Where the profile's session on `baseUrl` is kept. */
  tokenPath: string;
  /** The file store at `path` (default: the session's), whose lock says so on stderr while awaited. */
  store(path: string, what?: string): TokenStore;
  /** Updated as the command goes, for the error line. */
  at: Situation;
  err(text: string): void;
}

/** What every command gets: the command line as parsed, and the streams. */
export interface Invocation<O extends Options = Options> {
  io: Io;
  /** The command's own options and the global ones, as given. */
  values: ValuesOf<O> & ValuesOf<typeof GLOBAL_OPTIONS>;
  positionals: string[];
  out(text: string): void;
}

/** A word completion offers, with what it means. */
export interface Word {
  name: string;
  summary: string;
}

/** Words by the command words typed before them (`api GET` → the paths of GET operations). */
export type CompletionWords = readonly (readonly [path: string, words: readonly Word[]])[];

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
  /**
   * The words its arguments may take, for the completion scripts, keyed by the command words typed
   * before them (`api`, then `api GET`). A function, so that the object imports no package.
   */
  completions?(): Promise<CompletionWords>;
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

/** The whole command line: every command, the groups that gather some, and the one handed over. */
export interface CommandTable {
  commands: readonly Command[];
  groups: readonly { name: string; summary: string }[];
  handedOver: { readonly name: string; readonly summary: string };
}

/** What a local command gets: its invocation and the command table (completion draws from it). */
export interface LocalInvocation<O extends Options = Options> extends Invocation<O> {
  commandLine: CommandTable;
}

/**
 * A command that needs no config folder, host or session (`completion`): it runs without reading
 * them, so a profile or host setting that another command would refuse does not stop it.
 */
export interface LocalCommand<O extends Options = Options> extends About<O> {
  local: true;
  run(call: LocalInvocation<O>): Promise<void>;
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
