// The sandbox's command line, shared by its own bin (`engage-voice-sandbox`) and by `engage-voice
// sandbox` of @engage-voice/cli: parses the flags, starts both hosts, prints what to use, and stops
// on SIGINT or SIGTERM. Resolves with the exit code once stopped (2 for a usage error).
import { parseCliArgs, USAGE } from "./cli-args.js";

export { SANDBOX_FLAGS, sandboxUsage } from "./cli-args.js";

import { describeSandbox, startSandbox } from "./node.js";

export interface SandboxCliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export async function runSandboxCli(
  args: string[],
  io: SandboxCliIo = { stdout: process.stdout, stderr: process.stderr },
  usage = USAGE,
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
  const sandbox = await startSandbox({
    ...options,
    logger: { error: (message) => void io.stderr.write(`${message}\n`) },
  });
  io.stdout.write(`${describeSandbox(sandbox)}\n\nCtrl-C stops the sandbox.\n`);
  return new Promise<number>((resolve) => {
    const shutdown = () => void sandbox.stop().then(() => resolve(0));
    process.once("SIGINT", shutdown);
    process.once("SIGTERM", shutdown);
  });
}
