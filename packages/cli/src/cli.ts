#!/usr/bin/env node
// The `engage-voice` bin. Parses the command line and answers --help and --version without loading
// anything else; a command's code is imported only when it runs.
import { homedir } from "node:os";
import packageJson from "../package.json" with { type: "json" };
import { CliError } from "./exit.js";
import { parseCommandLine } from "./usage.js";

async function main(args: string[]): Promise<number> {
  // A closed pipe (`engage-voice users | head -1`) is not an error worth a line.
  process.stdout.on("error", (error: { code?: string }) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  });
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(args);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    process.stderr.write(`engage-voice: ${error.message}\n`);
    return error.exitCode;
  }
  if (parsed.kind === "version") {
    process.stdout.write(`${packageJson.version}\n`);
    return 0;
  }
  if (parsed.kind === "help") {
    process.stdout.write(parsed.text);
    return 0;
  }
  const { run } = await import("./run.js");
  return run(
    {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
      platform: process.platform,
      home: homedir(),
    },
    parsed.spec,
    parsed.values,
    parsed.positionals,
  );
}

process.exitCode = await main(process.argv.slice(2));
