import { parseArgs } from "node:util";
import type { StartSandboxOptions } from "./node.js";

export const USAGE = `Usage: node dist/cli.js [options]
  --port-main N             port of the contact-center host (default: a free port)
  --port-legacy N           port of the deprecated login host (default: a free port)
  --token-lifetime SECONDS  access-token lifetime (default 300)
  --faults                  enable fault injection (POST /__sandbox/faults on either host)
  --help                    show this text`;

function integer(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new TypeError(`--${name} must be an integer from ${min} to ${max}`);
  }
  return Number(value);
}

/** The sandbox options the command line asks for, or `"help"`. Throws a TypeError naming a bad flag. */
export function parseCliArgs(args: string[]): StartSandboxOptions | "help" {
  const { values } = parseArgs({
    args,
    options: {
      "port-main": { type: "string" },
      "port-legacy": { type: "string" },
      "token-lifetime": { type: "string" },
      faults: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) return "help";
  const lifetime = integer(values["token-lifetime"], "token-lifetime", 1, 86_400);
  const mainPort = integer(values["port-main"], "port-main", 0, 65_535);
  const legacyPort = integer(values["port-legacy"], "port-legacy", 0, 65_535);
  return {
    ...(mainPort === undefined ? {} : { mainPort }),
    ...(legacyPort === undefined ? {} : { legacyPort }),
    ...(lifetime === undefined ? {} : { tokenLifetimeMs: lifetime * 1000 }),
    faults: { enabled: values.faults },
  };
}
