// Every failure as one line for people, with what to do next, and its exit code. The typed errors
// of @engage-voice/auth carry no secret; the lines here quote nothing a user typed or an API sent
// but status codes and dotted error codes.
import { EngageVoiceAuthError, type RateLimitedError } from "@engage-voice/auth";
import type { RequestTimeoutError } from "@engage-voice/client";
import type { DeadlineError } from "./deadline.js";
import { CliError, EXIT, type ExitCode } from "./exit.js";

export interface Situation {
  /** The login command for this profile and host, e.g. `engage-voice login --profile ci`. */
  login: string;
  /** The host the command talked to. */
  host: string;
  /** The credential in use came from the profile (so a refusal means: log in again). */
  fromProfile: boolean;
  /** The command that ran: `login`, `api-tokens create`, … */
  command: string;
}

export interface Explained {
  message: string;
  exitCode: ExitCode;
}

/** Thrown by a command for an API answer that is not a success. */
export class ApiAnswerError extends Error {
  override readonly name = "ApiAnswerError";
  constructor(
    readonly status: number,
    readonly errorCode: string | undefined,
    readonly retryAfterMs: number | undefined,
  ) {
    super(`The API answered ${status}`);
  }
}

const seconds = (ms: number) => `${Math.max(1, Math.ceil(ms / 1000))} s`;

function isNetworkFailure(error: unknown): boolean {
  // openapi-fetch passes fetch's own rejection through: TypeError("fetch failed") with a system cause.
  return error instanceof TypeError && /fetch failed|network/i.test(error.message);
}

/**
 * A 404 on a path of the document: every one of them exists on the right host, so the host is the
 * wrong one (the other of the two, or not this API at all), and trying again cannot help.
 */
const notServed = (at: Situation): Explained => ({
  message: `${at.host} answered 404: it does not serve this API; check --base-url / --legacy-base-url`,
  exitCode: EXIT.failure,
});

export function explain(error: unknown, at: Situation): Explained {
  if (error instanceof CliError) {
    return { message: error.message, exitCode: error.exitCode };
  }
  const loginAgain = (why: string): Explained => ({
    message: `${why}: run ${at.login}`,
    exitCode: EXIT.login,
  });
  if (error instanceof ApiAnswerError) {
    const code = error.errorCode ? ` (${error.errorCode})` : "";
    if (error.status === 401) {
      return at.fromProfile
        ? loginAgain(`${at.host} refused the session${code}`)
        : { message: `${at.host} refused the credentials${code}: check them`, exitCode: EXIT.failure };
    }
    if (error.status === 403) {
      return {
        message: `${at.host} answered 403${code}: this user may not do that; ask an administrator for the role`,
        exitCode: EXIT.failure,
      };
    }
    if (error.status === 429) {
      const wait = error.retryAfterMs === undefined ? "later" : `in ${seconds(error.retryAfterMs)}`;
      return { message: `${at.host} is rate limiting: try again ${wait}`, exitCode: EXIT.failure };
    }
    // `api` printed the answer's body on the line above: a 4xx is the request's fault, not the host's.
    if (at.command === "api" && error.status < 500) {
      return {
        message: `${at.host} answered ${error.status}${code}: check the method, path and fields (the answer's body, if any, is on the line above)`,
        exitCode: EXIT.failure,
      };
    }
    if (error.status === 404 && at.command === "api-tokens delete") {
      return {
        message: `${at.host} answered 404${code}: no such API token among yours (engage-voice api-tokens list shows them)`,
        exitCode: EXIT.failure,
      };
    }
    if (error.status === 404) {
      return notServed(at);
    }
    return {
      message: `${at.host} answered ${error.status}${code}: try again later, or run with --debug`,
      exitCode: EXIT.failure,
    };
  }
  if ((error as DeadlineError | null)?.code === "command_timeout") {
    const { timeoutMs, waitingFor } = error as DeadlineError;
    const what = waitingFor ? `${waitingFor} did not answer` : `${at.command} did not finish`;
    return {
      message: `${what} within ${seconds(timeoutMs)}: try again, or give it longer with --timeout SECONDS`,
      exitCode: EXIT.failure,
    };
  }
  // By code, not class: a second copy of the client package (ESM and CommonJS) has its own class.
  if ((error as RequestTimeoutError | null)?.code === "request_timeout") {
    return {
      message: `${at.host} did not answer within ${seconds((error as RequestTimeoutError).timeoutMs)}: try again, or give it longer with --timeout SECONDS`,
      exitCode: EXIT.failure,
    };
  }
  if (isNetworkFailure(error)) {
    return {
      message: `No answer from ${at.host}: check your network and --base-url / --legacy-base-url`,
      exitCode: EXIT.failure,
    };
  }
  if (!(error instanceof EngageVoiceAuthError)) {
    const name = error instanceof Error ? error.name : typeof error;
    return {
      message: `Unexpected failure (${name}): run again with --debug for details`,
      exitCode: EXIT.failure,
    };
  }
  const status = error.status === undefined ? "" : ` (${error.status})`;
  switch (error.code) {
    case "invalid_options":
    case "transport_refused":
      // Their messages name the option and the rule, never the value.
      return { message: error.message, exitCode: EXIT.usage };
    case "exchange_rejected":
      return {
        message:
          at.command === "login"
            ? `${at.host} refused the RingCentral access token${status}: get a new one and log in again`
            : `${at.host} refused the RingCentral access token in ENGAGE_VOICE_RC_TOKEN${status}: set a valid one, or unset it and run ${at.login}`,
        exitCode: at.command === "login" ? EXIT.failure : EXIT.login,
      };
    case "refresh_rejected":
    case "reauth_required":
    case "logged_out":
      return loginAgain(`The session of this profile on ${at.host} is over`);
    case "parent_token_failed":
      return loginAgain(`Not logged in to ${at.host}, or the session is over`);
    case "login_rejected":
      return {
        message: `${at.host} refused the username, password or platform ID${status}: check them and try again`,
        exitCode: EXIT.failure,
      };
    case "credential_rejected":
      return at.fromProfile
        ? loginAgain(`${at.host} refused the profile's access token${status}`)
        : { message: `${at.host} refused the credentials${status}: log in again`, exitCode: EXIT.failure };
    case "rate_limited":
      return {
        message: `${at.host} is rate limiting: try again in ${seconds((error as RateLimitedError).retryAfterMs)}`,
        exitCode: EXIT.failure,
      };
    case "network_error":
      return {
        message: `No answer from ${at.host}${(error as { timedOut?: boolean }).timedOut ? " (timed out)" : ""}: check your network and the host (--base-url, --legacy-base-url)`,
        exitCode: EXIT.failure,
      };
    case "store_failed":
      return {
        message: `The profile's token file could not be used (${error.message}): check the config folder's permissions, or run engage-voice logout`,
        exitCode: EXIT.failure,
      };
    case "unexpected_response":
      if (error.status === 404) {
        return explain(new ApiAnswerError(404, undefined, undefined), at);
      }
      return {
        message: `${at.host} answered unexpectedly${status}: try again later, or run with --debug`,
        exitCode: EXIT.failure,
      };
    case "response_too_large": {
      const cap = (error as { maxBytes?: number }).maxBytes;
      const size = cap === undefined ? "" : ` of more than ${Math.floor(cap / 1024)} KiB`;
      return {
        message: `${at.host} answered${status} with a body${size}, which was not read: check --base-url / --legacy-base-url, or try again later`,
        exitCode: EXIT.failure,
      };
    }
    default:
      return { message: `${error.message}${status}`, exitCode: EXIT.failure };
  }
}
