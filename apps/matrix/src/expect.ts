// What every runtime must report: derived from the sandbox's seed and the scenario's steps, so a
// runtime that skipped a step, called twice or got other data fails with the difference shown.
import { isDeepStrictEqual } from "node:util";
import { type OperationId, operation } from "@engage-voice/client";
import { ACCOUNTS, USERS } from "@engage-voice/sandbox";
import type { ScenarioResult } from "./scenario.ts";

/** An operation as the scenario records a call of it, from the generated table: `host METHOD path`. */
function call(id: OperationId): string {
  const { host, method, path } = operation(id);
  return `${host} ${method.toUpperCase()} ${path}`;
}

const EXCHANGE = call("exchangeAccessToken");
const ACCOUNTS_CALL = call("listAccounts");

export function expectedResult(
  fileStore: boolean,
  parentUserId: number,
  tokenLifetimeMs: number,
): ScenarioResult {
  const agent = USERS.find((user) => user.userId === parentUserId);
  if (!agent) {
    throw new Error(`the sandbox seeds no user ${parentUserId}`);
  }
  return {
    accountIds: ACCOUNTS.map((account) => account.accountId),
    sessionAccountIds: [agent.accountId],
    tokenSets: 2,
    tokenLifetimeSeconds: tokenLifetimeMs / 1000,
    rotated: { accessToken: true, refreshToken: true },
    users: USERS.filter((user) => user.enabled).length,
    expiredAnswer: { status: 401, error: "Jwt is expired" },
    resumedFromFile: fileStore ? true : null,
    rejected: { name: "ExchangeRejectedError", code: "exchange_rejected", status: 401, isAuthError: true },
    apiToken: { shaped: true, listedAfterCreate: true, listedAfterDelete: false },
    calls: [
      EXCHANGE,
      ACCOUNTS_CALL,
      call("refreshAccessToken"),
      call("listUsers"),
      ACCOUNTS_CALL,
      ...(fileStore ? [ACCOUNTS_CALL] : []),
      EXCHANGE,
      call("legacyLogin"),
      call("createApiToken"),
      call("listApiTokens"),
      call("deleteApiToken"),
      call("listApiTokens"),
    ],
  };
}

/** Throws with every field that differs from what was expected. */
export function compareResult(actual: Record<string, unknown>, expected: ScenarioResult): void {
  const differences = Object.entries(expected)
    .filter(([key, value]) => !isDeepStrictEqual(actual[key], value))
    .map(([key, value]) => `  ${key}: expected ${JSON.stringify(value)}, got ${JSON.stringify(actual[key])}`);
  if (differences.length > 0) {
    throw new Error(`the scenario's result differs:\n${differences.join("\n")}`);
  }
}

const MARKER = "MATRIX_RESULT ";

/** The result line a consumer printed. */
export function parseResultLine(stdout: string): Record<string, unknown> {
  const line = stdout.split("\n").find((l) => l.startsWith(MARKER));
  if (!line) {
    throw new Error("the consumer printed no result line");
  }
  return JSON.parse(line.slice(MARKER.length)) as Record<string, unknown>;
}
