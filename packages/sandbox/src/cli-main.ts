// The sandbox's command line, shared by its own bin (`engage-voice-sandbox`) and by `engage-voice
// sandbox` of @engage-voice/cli: parses the flags, starts both hosts, prints what to use, and stops
// on SIGINT or SIGTERM. Resolves with the exit code once stopped (2 for a usage error).
import { PORT_FLAGS, parseCliArgs, USAGE } from "./cli-args.js";

export { SANDBOX_FLAGS, sandboxUsage } from "./cli-args.js";

import { describeSandbox, type RunningSandbox, SandboxPortInUseError, startSandbox } from "./node.js";

export interface SandboxCliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export async function runSandboxCli(
  args: string[],
  io: SandboxCliIo = { stdout: process.stdout, stderr: process.stderr },
  usage = USAGE,
  /** `true` from a bin, whose process is the sandbox's own: see `StartSandboxOptions`. */
  { overrideGlobalObjects = false }: { overrideGlobalObjects?: boolean } = {},
): Promise<number> {
  let options: ReturnType<typeof parseCliArgs>;
  try {
    options = parseCliArgs(args);
  } catch (error) {
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${usage}\n`);
    return 2;
  }
  if (options === "help") {
    io.stdout.write(`${usage}\n`);
    return 0;
  }
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({
      ...options,
      overrideGlobalObjects,
      logger: { error: (message) => void io.stderr.write(`${message}\n`) },
    });
  } catch (error) {
    if (!(error instanceof SandboxPortInUseError)) {
      throw error;
    }
    const flag = `--${PORT_FLAGS[error.option]}`;
    io.stderr.write(
      `Port ${error.port} on 127.0.0.1 is in use (${flag}): pick another with ${flag} N, or leave the flag out for a free port\n`,
    );
    return 1;
  }
  io.stdout.write(`${describeSandbox(sandbox)}\n\nCtrl-C stops the sandbox.\n`);
  return new Promise<number>((resolve) => {
    const shutdown = () => void sandbox.stop().then(() => resolve(0));
    process.once("SIGINT", shutdown);
    process.once("SIGTERM", shutdown);
  });
}
