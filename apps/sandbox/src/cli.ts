#!/usr/bin/env node
// `engage-voice-sandbox [options]`: see USAGE in cli-args.ts.
import { runSandboxCli } from "./cli-main.js";

process.exit(await runSandboxCli(process.argv.slice(2)));
