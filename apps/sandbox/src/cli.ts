// `node dist/cli.js [--port-main N] [--port-legacy N] [--token-lifetime SECONDS] [--faults]`

import { parseArgs } from "node:util";
import { describeSandbox, startSandbox } from "./node.js";

const USAGE = `Usage: node dist/cli.js [options]
  --port-main N            port of the contact-center host (default: a free port)
  --port-legacy N          port of the deprecated login host (default: a free port)
  --token-lifetime SECONDS access-token lifetime (default 300)
  --faults                 enable fault injection (POST /__sandbox/faults)
  --help                   show this text`;

function integer(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) {
    throw new Error(`--${name} must be an integer from ${min} to ${max}`);
  }
  return number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "port-main": { type: "string" },
      "port-legacy": { type: "string" },
      "token-lifetime": { type: "string" },
      faults: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const lifetime = integer(values["token-lifetime"], "token-lifetime", 1, 86_400);
  const mainPort = integer(values["port-main"], "port-main", 0, 65_535);
  const legacyPort = integer(values["port-legacy"], "port-legacy", 0, 65_535);
  const sandbox = await startSandbox({
    ...(mainPort === undefined ? {} : { mainPort }),
    ...(legacyPort === undefined ? {} : { legacyPort }),
    ...(lifetime === undefined ? {} : { tokenLifetimeMs: lifetime * 1000 }),
    faults: { enabled: values.faults },
  });
  console.log(describeSandbox(sandbox));
  console.log("\nPress Ctrl+C to stop.");
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
