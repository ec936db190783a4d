// Runs a parsed command: builds its context, runs it, and turns any failure into one line on
// stderr and an exit code. Imported only once a command is to run, so --help and --version stay quick.
import { EngageVoiceAuthError } from "@engage-voice/auth";
import type { Command, Context, Invocation, Io } from "./command.js";
import { COMMAND_TABLE } from "./commands/index.js";
import { createContext } from "./context.js";
import { DeadlineError } from "./deadline.js";
import { debugLines } from "./debug-log.js";
import { ENV } from "./env.js";
import { CliError, EXIT } from "./exit.js";
import { ApiAnswerError, explain, type Situation } from "./explain.js";
import type { OptionValues } from "./options.js";

/** A stack for --debug. A foreign error's message may quote a request, so only its name is kept. */
function debugTrace(error: unknown): string {
  if (!(error instanceof Error)) {
    return `${typeof error}`;
  }
  const own =
    error instanceof EngageVoiceAuthError ||
    error instanceof CliError ||
    error instanceof ApiAnswerError ||
    error instanceof DeadlineError;
  const code = (error as { code?: unknown }).code;
  const head = own
    ? `${error.name}: ${error.message}`
    : `${error.name}${typeof code === "string" ? ` (${code})` : ""}`;
  const frames = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  const cause = error.cause;
  const causeLine = cause instanceof Error ? `\n  [cause] ${debugTrace(cause).split("\n")[0]}` : "";
  return [head, ...frames].join("\n") + causeLine;
}

export interface Outcome {
  exitCode: number;
  /**
   * The command ended at its deadline while work of it may still be under way (a lock wait, a retry
   * of the token manager): the bin ends the process rather than wait for that work.
   */
  abandoned: boolean;
}

export async function run(
  io: Io,
  spec: Command,
  values: OptionValues,
  positionals: string[],
): Promise<Outcome> {
  let ctx: Context | undefined;
  const fallback: Situation = {
    login: "engage-voice login",
    host: "the host",
    fromProfile: true,
    command: spec.name,
  };
  try {
    if (spec.local) {
      // The parser checked the values against the command's options.
      const checked = values as Invocation["values"];
      const out = (text: string) => void io.stdout.write(text);
      await spec.run({ io, values: checked, positionals, out, commandLine: COMMAND_TABLE });
      return { exitCode: EXIT.ok, abandoned: false };
    }
    ctx = await createContext(io, spec, values, positionals);
    await ctx.deadline.within(spec.run(ctx));
    return { exitCode: EXIT.ok, abandoned: false };
  } catch (thrown) {
    ctx?.spinner.stop();
    // Past the deadline, whatever failed failed because of it.
    const abandoned = ctx?.deadline.signal.aborted === true;
    const error = abandoned ? ctx?.deadline.signal.reason : thrown;
    const { message, exitCode } = explain(error, ctx?.at ?? fallback);
    io.stderr.write(`engage-voice: ${message}\n`);
    if (values.debug === true || io.env[ENV.log] === "debug") {
      io.stderr.write(debugLines(debugTrace(error)));
    }
    return { exitCode, abandoned };
  } finally {
    ctx?.deadline.stop();
    ctx?.spinner.stop();
  }
}
