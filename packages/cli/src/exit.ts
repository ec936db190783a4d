/** The exit codes, documented in the README and in `engage-voice --help`. */
export const EXIT = {
  ok: 0,
  /** The API refused or failed, or there was no answer. */
  failure: 1,
  /** The command line was wrong, or a confirmation was declined: nothing was sent. */
  usage: 2,
  /** Not logged in, or the session is over: run `engage-voice login`. */
  login: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error whose message is one line for people (never a secret) and whose exit code is known. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage);
