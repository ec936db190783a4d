// What every runtime must report: derived from the sandbox's seed and the scenario's steps, so a
// runtime that skipped a step, called twice or got other data fails with the difference shown.
import { isDeepStrictEqual } from "node:util";
import { ACCOUNTS, USERS } from "@engage-voice/sandbox";
import type { ScenarioResult } from "./scenario.ts";

const EXCHANGE = "main POST /api/auth/login/rc/accesstoken";
const ACCOUNTS_CALL = "main GET /voice/api/v1/admin/accounts";

export function expectedResult(fileStore: boolean, parentUserId: number): ScenarioResult {
  const agent = USERS.find((user) => user.userId === parentUserId);
  if (!agent) {
    throw new Error(`the sandbox seeds no user ${parentUserId}`);
  }
  return {
    accountIds: ACCOUNTS.map((account) => account.accountId),
    sessionAccountIds: [agent.accountId],
    tokenSets: 2,
    rotated: { accessToken: true, refreshToken: true },
    users: USERS.filter((user) => user.enabled).length,
    expiredAnswer: { status: 401, error: "Jwt is expired" },
    resumedFromFile: fileStore ? true : null,
    rejected: { name: "ExchangeRejectedError", code: "exchange_rejected", status: 401, isAuthError: true },
    apiToken: { shaped: true, listedAfterCreate: true, listedAfterDelete: false },
    calls: [
      EXCHANGE,
      ACCOUNTS_CALL,
      "main POST /api/auth/token/refresh",
      "main GET /voice/api/v1/admin/users",
      ACCOUNTS_CALL,
      ...(fileStore ? [ACCOUNTS_CALL] : []),
      EXCHANGE,
      "legacy POST /api/auth/login/admin",
      "legacy POST /voice/api/v1/admin/token",
      "legacy GET /voice/api/v1/admin/token",
      "legacy DELETE /voice/api/v1/admin/token/{apiToken}",
      "legacy GET /voice/api/v1/admin/token",
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
