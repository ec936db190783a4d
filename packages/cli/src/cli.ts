#!/usr/bin/env node
// The `engage-voice` bin. Parses the command line and answers --help and --version without loading
// anything else; a command's code is imported only when it runs.
import { readFileSync } from "node:fs";
import nodeModule from "node:module";
import { homedir } from "node:os";
import { CliError } from "./exit.js";
import { parseCommandLine } from "./usage.js";

// Node 22.1+ keeps compiled code on disk, so a command's modules (imported when it runs, below) start
// faster the second time; a no-op where the runtime has no such cache (Node 20, Bun, Deno).
// Read off the module object: a named import would fail to link where the export is missing.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

async function main(args: string[]): Promise<number> {
  // A closed pipe (`engage-voice users | head -1`) is not an error worth a line.
  process.stdout.on("error", (error: { code?: string }) => {
    if (error.code === "EPIPE") {
      process.exit(process.exitCode ?? 0);
    }
  });
  // The sandbox has its own flags and help: the command hands them over as they are.
  if (args[0] === "sandbox") {
    const { runSandboxCli, sandboxUsage } = await import("@engage-voice/sandbox/cli");
    // This process is then the sandbox's own: its faster globals may replace the process's.
    return runSandboxCli(args.slice(1), undefined, sandboxUsage("engage-voice sandbox"), {
      overrideGlobalObjects: true,
    });
  }
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(args);
  } catch (error) {
    if (!(error instanceof CliError)) {
      throw error;
    }
    process.stderr.write(`engage-voice: ${error.message}\n`);
    return error.exitCode;
  }
  if (parsed.kind === "version") {
    // Read, not bundled: a release writes the version (changeset version) after a build may have run.
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    process.stdout.write(`${version}\n`);
    return 0;
  }
  if (parsed.kind === "help") {
    process.stdout.write(parsed.text);
    return 0;
  }
  const platform = { env: process.env, platform: process.platform, home: homedir() };
  if (parsed.spec.name === "token") {
    // A valid stored session is printed without loading the token manager; any doubt runs it.
    const { storedToken } = await import("./commands/token/stored.js");
    const token = await storedToken(platform, parsed.values);
    if (token !== undefined) {
      process.stdout.write(`${token}\n`);
      return 0;
    }
  }
  const { run } = await import("./run.js");
  const { exitCode, abandoned } = await run(
    {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      ...platform,
    },
    parsed.spec,
    parsed.values,
    parsed.positionals,
  );
  if (abandoned) {
    // What the command left running past its deadline must not hold the process: once what was
    // written has gone out (pipes can be asynchronous), it ends here.
    await Promise.all([process.stdout, process.stderr].map((s) => new Promise((done) => s.write("", done))));
    process.exit(exitCode);
  }
  return exitCode;
}

process.exitCode = await main(process.argv.slice(2));
