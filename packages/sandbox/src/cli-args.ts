import { parseArgs } from "node:util";
import type { StartSandboxOptions } from "./node.js";
import { DEFAULT_PARENT_TOKENS } from "./seed.js";

export const USAGE = `Usage: engage-voice-sandbox [options]   (or: engage-voice sandbox [options])
  --port-main N             port of the contact-center host (default: a free port)
  --port-legacy N           port of the deprecated login host (default: a free port)
  --token-lifetime SECONDS  access-token lifetime (default 300)
  --exchange-limit N        token exchanges a minute (default 5, as observed; refused parent tokens count)
  --users-limit N           GET /users calls a minute (default 120)
  --parent-token TOKEN=ID   seed another parent-platform token for seeded user ID (repeatable)
  --faults                  enable fault injection (POST /__sandbox/faults on either host)
  --control                 enable time and state control (POST /__sandbox/control on either host)
  --help                    show this text`;

function integer(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) {
    return undefined;
  }
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
      "exchange-limit": { type: "string" },
      "users-limit": { type: "string" },
      "parent-token": { type: "string", multiple: true },
      faults: { type: "boolean", default: false },
      control: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    return "help";
  }
  const lifetime = integer(values["token-lifetime"], "token-lifetime", 1, 86_400);
  const mainPort = integer(values["port-main"], "port-main", 0, 65_535);
  const legacyPort = integer(values["port-legacy"], "port-legacy", 0, 65_535);
  const exchangeLimit = integer(values["exchange-limit"], "exchange-limit", 1, 100_000);
  const usersLimit = integer(values["users-limit"], "users-limit", 1, 100_000);
  const extraTokens: Record<string, number> = {};
  for (const pair of values["parent-token"] ?? []) {
    const match = /^([\x21-\x7e]+)=(\d+)$/.exec(pair);
    if (!match) {
      throw new TypeError("--parent-token must be TOKEN=USER_ID, such as my-dev-token=1001");
    }
    extraTokens[match[1] as string] = Number(match[2]);
  }
  return {
    ...(Object.keys(extraTokens).length === 0
      ? {}
      : { parentTokens: { ...DEFAULT_PARENT_TOKENS, ...extraTokens } }),
    ...(exchangeLimit === undefined ? {} : { exchangeRateLimit: { limit: exchangeLimit, windowMs: 60_000 } }),
    ...(usersLimit === undefined ? {} : { usersRateLimit: { limit: usersLimit, windowMs: 60_000 } }),
    ...(mainPort === undefined ? {} : { mainPort }),
    ...(legacyPort === undefined ? {} : { legacyPort }),
    ...(lifetime === undefined ? {} : { tokenLifetimeMs: lifetime * 1000 }),
    faults: { enabled: values.faults },
    ...(values.control ? { control: { enabled: true } } : {}),
  };
}
