#!/usr/bin/env node
// `engage-voice-sandbox [options]`: see USAGE in src/cli-args.ts. The bin is a committed file outside
// dist/ so that pnpm can link it into the workspace packages that depend on the sandbox before
// anything is built (a bin in dist/ made every `pnpm install` warn `Failed to create bin ... ENOENT`).
import { runSandboxCli } from "../dist/cli-main.js";

// The process is the sandbox's own: @hono/node-server's lightweight Request and Response may replace
// its globals (StartSandboxOptions.overrideGlobalObjects).
process.exit(
  await runSandboxCli(process.argv.slice(2), undefined, undefined, { overrideGlobalObjects: true }),
);
