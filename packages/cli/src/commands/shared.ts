// What the commands' work shares: output helpers, the options of every call, and an API answer that
// is not a success as an error. Imported by the commands' `run` modules only, never by the parser.
import { retryAfterMs } from "@engage-voice/client";
import type { Context } from "../context.js";
import { ApiAnswerError, safeErrorCode } from "../explain.js";
import { jsonText } from "../terminal.js";

export const json = jsonText;

export const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** What every call of a command shares: its deadline (--timeout) and where its retries are logged. */
export const callOptions = (ctx: Context) => ({
  logger: ctx.logger,
  ...(ctx.timeoutMs === undefined ? {} : { timeoutMs: ctx.timeoutMs }),
});

export function answerError(response: Response, error: unknown): ApiAnswerError {
  const body = typeof error === "object" && error !== null ? (error as { errorCode?: unknown }) : {};
  return new ApiAnswerError(
    response.status,
    safeErrorCode(body.errorCode),
    retryAfterMs(response, Date.now()),
  );
}
