import { parseArgs } from "node:util";
import { unknownOption } from "@engage-voice/client/internal";
import type { StartSandboxOptions } from "./node.js";
import { EXCHANGE_RATE_LIMIT_SCOPES, type ExchangeRateLimitScope, SANDBOX_DEFAULTS } from "./options.js";
import { DEFAULT_PARENT_TOKENS, MAX_TENANTS } from "./seed.js";

/** A default limit as calls a minute, the unit of the flags. */
const perMinute = ({ limit, windowMs }: { limit: number; windowMs: number }) => (limit * 60_000) / windowMs;

/**
 * Every flag of the sandbox's command line, the one list: the parser reads it, and so do the usage
 * text of both commands (`engage-voice-sandbox`, `engage-voice sandbox`) and the README's table,
 * which a test compares with {@link flagRows}. `value` names a flag's argument; backticks in a
 * summary are Markdown, dropped on a terminal.
 */
export const SANDBOX_FLAGS = {
  "port-main": {
    type: "string",
    value: "N",
    summary: "port of the contact-center host (default: a free port)",
  },
  "port-legacy": {
    type: "string",
    value: "N",
    summary: "port of the deprecated login host (default: a free port)",
  },
  "token-lifetime": {
    type: "string",
    value: "SECONDS",
    summary: `access-token lifetime (default ${SANDBOX_DEFAULTS.tokenLifetimeMs / 1000})`,
  },
  "exchange-limit": {
    type: "string",
    value: "N",
    summary: `token exchanges a minute (default ${perMinute(SANDBOX_DEFAULTS.exchangeRateLimit)}, as observed; refused parent tokens count)`,
  },
  "exchange-limit-scope": {
    type: "string",
    value: "SCOPE",
    summary: `whose exchanges share the limit: ${EXCHANGE_RATE_LIMIT_SCOPES.map((name) => `\`${name}\``).join(", ")} (default \`${SANDBOX_DEFAULTS.exchangeRateLimitScope}\`: each tenant its own)`,
  },
  "users-limit": {
    type: "string",
    value: "N",
    summary: `\`GET /users\` calls a minute (default ${perMinute(SANDBOX_DEFAULTS.usersRateLimit)})`,
  },
  tenants: {
    type: "string",
    value: "N",
    summary: `seed N more tenants, 0 to ${MAX_TENANTS}: main accounts with their own users and parent tokens, \`sandbox-rc-token-tenant-<i>-ada\` and \`-rob\` (default ${SANDBOX_DEFAULTS.tenants})`,
  },
  "parent-token": {
    type: "string",
    multiple: true,
    value: "TOKEN=USER_ID",
    summary: "seed another parent-platform token for the seeded user USER_ID (repeatable)",
  },
  faults: {
    type: "boolean",
    default: false,
    summary: "enable fault injection (`POST /__sandbox/faults` on either host)",
  },
  control: {
    type: "boolean",
    default: false,
    summary: "enable time and state control (`POST /__sandbox/control` on either host)",
  },
  help: { type: "boolean", default: false, summary: "print this list of flags" },
} as const;

type Flag = { value?: string; summary: string };

/** Each flag as it is written with its argument (`--port-main N`) and its summary (Markdown). */
export function flagRows(): [flag: string, summary: string][] {
  return Object.entries(SANDBOX_FLAGS as Record<string, Flag>).map(([name, flag]) => [
    `--${name}${flag.value ? ` ${flag.value}` : ""}`,
    flag.summary,
  ]);
}

/** The text of `--help` and of a usage error, for the command that runs the sandbox. */
export function sandboxUsage(command: "engage-voice-sandbox" | "engage-voice sandbox"): string {
  const rows = flagRows();
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  return [
    `Usage: ${command} [options]`,
    "Starts the stateful sandbox of both hosts on 127.0.0.1 (fake data; no real credentials needed).",
    ...rows.map(([flag, summary]) => `  ${flag.padEnd(width)}${summary.replaceAll("`", "")}`),
  ].join("\n");
}

/** The usage text of the sandbox's own bin. */
export const USAGE = sandboxUsage("engage-voice-sandbox");

function integer(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new TypeError(`--${name} must be an integer from ${min} to ${max}`);
  }
  return Number(value);
}

/** The flag of each port option, for an error that names the option (a port in use). */
export const PORT_FLAGS = { mainPort: "port-main", legacyPort: "port-legacy" } as const;

/**
 * A mistyped flag, with the nearest one: parseArgs names the flag alone. Read from the flags' names
 * (`rawName`), never their values, which may be a token (`--parent-tokn=TOKEN=1001`).
 */
function checkFlagNames(args: string[]): void {
  const { tokens } = parseArgs({ args, options: SANDBOX_FLAGS, strict: false, tokens: true });
  const given = Object.fromEntries(tokens.flatMap((t) => (t.kind === "option" ? [[t.rawName, true]] : [])));
  const unknown = unknownOption(
    given,
    Object.keys(SANDBOX_FLAGS).map((name) => `--${name}`),
    "The sandbox",
  );
  if (unknown) {
    throw new TypeError(unknown);
  }
}

/** The sandbox options the command line asks for, or `"help"`. Throws a TypeError naming a bad flag. */
export function parseCliArgs(args: string[]): StartSandboxOptions | "help" {
  checkFlagNames(args);
  const { values } = parseArgs({ args, options: SANDBOX_FLAGS, strict: true });
  if (values.help) {
    return "help";
  }
  const lifetime = integer(values["token-lifetime"], "token-lifetime", 1, 86_400);
  const mainPort = integer(values[PORT_FLAGS.mainPort], PORT_FLAGS.mainPort, 0, 65_535);
  const legacyPort = integer(values[PORT_FLAGS.legacyPort], PORT_FLAGS.legacyPort, 0, 65_535);
  const exchangeLimit = integer(values["exchange-limit"], "exchange-limit", 1, 100_000);
  const usersLimit = integer(values["users-limit"], "users-limit", 1, 100_000);
  const tenants = integer(values.tenants, "tenants", 0, MAX_TENANTS);
  const scope = values["exchange-limit-scope"];
  if (scope !== undefined && !(EXCHANGE_RATE_LIMIT_SCOPES as readonly string[]).includes(scope)) {
    throw new TypeError(`--exchange-limit-scope must be one of ${EXCHANGE_RATE_LIMIT_SCOPES.join(", ")}`);
  }
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
    ...(scope === undefined ? {} : { exchangeRateLimitScope: scope as ExchangeRateLimitScope }),
    ...(usersLimit === undefined ? {} : { usersRateLimit: { limit: usersLimit, windowMs: 60_000 } }),
    ...(tenants === undefined ? {} : { tenants }),
    ...(mainPort === undefined ? {} : { mainPort }),
    ...(legacyPort === undefined ? {} : { legacyPort }),
    ...(lifetime === undefined ? {} : { tokenLifetimeMs: lifetime * 1000 }),
    faults: { enabled: values.faults },
    ...(values.control ? { control: { enabled: true } } : {}),
  };
}
