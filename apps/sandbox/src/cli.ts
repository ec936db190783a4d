#!/usr/bin/env node
// `engage-voice-sandbox [options]`: see USAGE in cli-args.ts.

import { parseCliArgs, USAGE } from "./cli-args.js";
import { describeSandbox, startSandbox } from "./node.js";

async function main(): Promise<void> {
  const options = parseCliArgs(process.argv.slice(2));
  if (options === "help") {
    console.log(USAGE);
    return;
  }
  const sandbox = await startSandbox(options);
  console.log(describeSandbox(sandbox));
  console.log("\nCtrl-C stops the sandbox.");
  const shutdown = () => {
    sandbox.stop().then(() => process.exit(0));
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  console.error(USAGE);
  process.exit(2);
});
