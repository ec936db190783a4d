// What the commands' work shares: output helpers, the options of every call, and an API answer that
// is not a success as an error. Imported by the commands' `run` modules only, never by the parser.
import { retryAfterMs } from "@engage-voice/client";
import { quotableErrorCode } from "@engage-voice/client/internal";
import type { Context } from "../command.js";
import { ENV } from "../env.js";
import { ApiAnswerError } from "../explain.js";
import { jsonText } from "../terminal.js";

export const json = jsonText;

/**
 * What a command writes on stdout, in the one mode the run chose: `data` as JSON (`--json`, or stdout
 * is not a terminal and `--table` was not given), else `text()`, for people (a table, a sentence).
 * `asJson` is given by the commands whose text is a bare value for `$(…)`: only `--json` changes it.
 */
export function print(ctx: Context, data: unknown, text: () => string, asJson = ctx.json): void {
  ctx.out(asJson ? json(data) : text());
}

export const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** What every call of a command shares: its deadline (--timeout) and where its retries are logged. */
export const callOptions = (ctx: Context) => ({
  logger: ctx.logger,
  ...(ctx.timeoutMs === undefined ? {} : { timeoutMs: ctx.timeoutMs }),
});

/**
 * An answer that is not a success, as an error. Its `errorCode` is quoted only under the client's
 * rule, checked against the credentials the session may have sent (a server may echo them).
 */
export async function answerError(ctx: Context, response: Response, error: unknown): Promise<ApiAnswerError> {
  const body = typeof error === "object" && error !== null ? (error as { errorCode?: unknown }) : {};
  const tokens = await ctx
    .store(ctx.tokenPath)
    .get()
    .catch(() => undefined);
  const credentials = [tokens?.accessToken, tokens?.refreshToken, ctx.io.env[ENV.parentToken]].filter(
    (value): value is string => typeof value === "string",
  );
  return new ApiAnswerError(
    response.status,
    quotableErrorCode(body.errorCode, credentials),
    retryAfterMs(response, Date.now()),
  );
}
