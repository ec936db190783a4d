// What every command needs: the resolved profile and hosts, the output mode, a fetch that logs
// (with --debug) and spins (on a terminal), and the profile's session.

import { join } from "node:path";
import {
  createTokenManager,
  type Logger,
  ResponseTooLargeError,
  type TokenManager,
  type TokenManagerOptions,
} from "@engage-voice/auth";
import { fileStore } from "@engage-voice/auth/node";
import { callDefaults, callLimits, printablePath } from "@engage-voice/client";
import { sleep as waitFor } from "@engage-voice/client/internal";
import type { Command, Context, Io } from "./command.js";
import {
  checkOrigin,
  checkProfile,
  configDir,
  DEFAULT_PROFILE,
  HOST_OPTIONS,
  type ProfileConfig,
  profileHosts,
  readConfig,
  secureFolders,
  tokenFile,
} from "./config.js";
import { CommandDeadline } from "./deadline.js";
import { DebugLog } from "./debug-log.js";
import { ENV } from "./env.js";
import { CliError, EXIT, usageError } from "./exit.js";
import { announceLockWaits } from "./lock-wait.js";
import type { OptionValues } from "./options.js";
import { Spinner } from "./terminal.js";

/** `--timeout` (or its variable) in seconds, as ms: a positive number up to an hour. */
export function timeoutOf(value: string | undefined): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const seconds = Number(value);
  if (!/^\d+(?:\.\d+)?$/.test(value.trim()) || !(seconds > 0) || seconds > callLimits.timeoutMs / 1000) {
    throw usageError(
      `--timeout (or ${ENV.timeout}) must be a number of seconds above 0 and at most ${callLimits.timeoutMs / 1000}, such as 30`,
    );
  }
  return Math.max(1, Math.round(seconds * 1000));
}

/** `/voice/api/v1/admin/token/<token>` would log a credential: the document's template is logged. */
export function loggablePath(url: URL): string {
  return `${url.origin}${printablePath(url.pathname)}`;
}

/**
 * The most the CLI reads of one answer. A users list of tens of thousands of users is a few MB;
 * past this, the answer is not one the API sends, and reading it whole would take memory without
 * bound (a 300 MB answer took 1.9 GB).
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The answer, its body cut off with `ResponseTooLargeError` once it has passed `maxBytes`. */
export function capped(response: Response, maxBytes: number): Response {
  // An opaque redirect (status 0) cannot be rebuilt, and has no body to read.
  if (!response.body || response.status < 200) {
    return response;
  }
  const tooLarge = () => new ResponseTooLargeError("The server", maxBytes, response.status);
  if (Number(response.headers.get("Content-Length")) > maxBytes) {
    void response.body.cancel().catch(() => {});
    throw tooLarge();
  }
  let read = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > maxBytes) {
          // Erroring the stream cancels the source: the connection is closed, nothing more is read.
          controller.error(tooLarge());
        } else {
          controller.enqueue(chunk);
        }
      },
    }),
  );
  const { status, statusText, headers } = response;
  return new Response(counted, { status, statusText, headers });
}

function instrument(
  base: typeof fetch,
  spinner: Spinner,
  deadline: CommandDeadline,
  log: DebugLog | undefined,
) {
  const instrumented = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const url = new URL(input instanceof Request ? input.url : String(input));
    // The query is never logged: the direct login sends the password in it.
    const where = `${method} ${loggablePath(url)}`;
    // How the libraries name this try in their own debug line, which this one stands for.
    const debug = (line: string) => log?.request(`${method} ${printablePath(url.pathname)}`, line);
    const end = spinner.begin(`Waiting for ${url.host}…`);
    const answered = deadline.request(url.origin);
    const started = performance.now();
    // A try the token manager starts in the background after the deadline ends at once, unsent.
    const signal = deadline.and(init?.signal ?? (input instanceof Request ? input.signal : undefined));
    try {
      const response = await base(input, { ...init, signal });
      debug(`${where} → ${response.status} in ${Math.round(performance.now() - started)} ms`);
      return capped(response, MAX_ANSWER_BYTES);
    } catch (error) {
      const name = (error as { name?: unknown })?.name;
      debug(
        `${where} → no answer (${typeof name === "string" ? name : "Error"}) after ${Math.round(performance.now() - started)} ms`,
      );
      throw error;
    } finally {
      answered();
      end();
    }
  };
  return instrumented as typeof fetch;
}

export async function createContext(
  io: Io,
  spec: Command,
  values: OptionValues,
  positionals: string[],
): Promise<Context> {
  const debug = values.debug === true || io.env[ENV.log] === "debug";
  const timeoutMs = timeoutOf((values.timeout as string | undefined) ?? (io.env[ENV.timeout] || undefined));
  const err = (text: string) => void io.stderr.write(text);
  const log = debug ? new DebugLog(err) : undefined;
  const debugLine = log?.line;
  const profile = checkProfile(
    (values.profile as string | undefined) ?? (io.env[ENV.profile] || undefined) ?? DEFAULT_PROFILE,
  );
  const dir = configDir(io);
  await secureFolders(dir, profile, io.platform);
  const config = await readConfig(dir);
  if (config.ignored) {
    err(
      `engage-voice: warning: ${join(dir, "config.json")} holds ${config.ignored} profile name(s) that are not valid profile names: ignored; fix or remove them\n`,
    );
  }
  const saved = profileHosts(config, profile);
  // The option, else its variable, else the profile's host; checked as the client packages check it.
  const host = (key: keyof ProfileConfig) =>
    checkOrigin(
      (values[HOST_OPTIONS[key]] as string | undefined) ?? (io.env[ENV[key]] || undefined) ?? saved[key],
      HOST_OPTIONS[key],
    );
  const baseUrl = host("baseUrl");
  const legacyBaseUrl = host("legacyBaseUrl");
  const spinner = new Spinner(io.stderr, io.stderr.isTTY === true && !debug);
  const logger: Logger = {
    error: (message) => err(`engage-voice: warning: ${message}\n`),
    ...(log
      ? {
          warn: (message: string) => log.line(`warning: ${message}`),
          info: log.library,
          debug: log.library,
        }
      : {}),
  };
  const sleep = (ms: number, signal?: AbortSignal) => {
    // No debug line: the library's warning before each wait says how long it is.
    const end = spinner.begin(`Waiting ${Math.ceil(ms / 1000)} s before trying again (rate limit or retry)…`);
    return waitFor(ms, deadline.and(signal)).finally(end);
  };
  const login = [
    "engage-voice login",
    ...(profile === DEFAULT_PROFILE ? [] : [`--profile ${profile}`]),
    ...(baseUrl === saved.baseUrl ? [] : [`--${HOST_OPTIONS.baseUrl} ${baseUrl}`]),
  ].join(" ");
  // Last, once nothing here can throw: the timer holds the process until run() stops it.
  const deadline = new CommandDeadline(timeoutMs ?? callDefaults.timeoutMs);
  return {
    io,
    spec,
    // The parser checked them against the command's options.
    values: values as Context["values"],
    positionals,
    profile,
    baseUrl,
    legacyBaseUrl,
    dir,
    config,
    json: values.json === true || (values.table !== true && io.stdout.isTTY !== true),
    debug,
    spinner,
    fetch: instrument(globalThis.fetch, spinner, deadline, log),
    logger,
    sleep,
    timeoutMs,
    deadline,
    tokenPath: tokenFile(dir, profile, baseUrl),
    store: (path, what = "the session") => announceLockWaits(fileStore(path), what, spinner, debugLine),
    at: { login, host: baseUrl, fromProfile: true, command: spec.name },
    out: (text) => void io.stdout.write(text),
    err,
  };
}

/** Options every token manager of the CLI shares. */
export function managerOptions(ctx: Context): Omit<TokenManagerOptions, "rcAccessToken"> {
  return {
    baseUrl: ctx.baseUrl,
    fetch: ctx.fetch,
    logger: ctx.logger,
    sleep: ctx.sleep,
    ...(ctx.timeoutMs === undefined ? {} : { timeoutMs: ctx.timeoutMs }),
  };
}

/**
 * The profile's session on its host, resumed from the token file. Without a stored session it is
 * "not logged in" (exit 3), unless ENGAGE_VOICE_RC_TOKEN holds a parent token to exchange.
 */
export async function session(ctx: Context): Promise<TokenManager> {
  const store = ctx.store(ctx.tokenPath);
  const parentToken = ctx.io.env[ENV.parentToken] || undefined;
  if (!parentToken && !(await store.get())) {
    throw new CliError(
      `Not logged in to ${ctx.baseUrl} (profile ${ctx.profile}): run ${ctx.at.login}`,
      EXIT.login,
    );
  }
  return createTokenManager({
    ...managerOptions(ctx),
    store,
    tenant: ctx.profile,
    rcAccessToken:
      parentToken ??
      (() => {
        throw new Error("no parent token: log in again");
      }),
  });
}
