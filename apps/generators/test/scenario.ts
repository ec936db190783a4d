// Every operation of the document in the order a user makes them (a test holds the list to the document), through one generated client: every answer is
// a success whose body the generated code parsed into what the operation documents.
import type { Answer, Calls, LegacyCredentials } from "../adapters/calls.js";

export const OPERATIONS = [
  "exchangeAccessToken",
  "refreshAccessToken",
  "listAccounts",
  "listUsers",
  "legacyLogin",
  "createApiToken",
  "listApiTokens",
  "deleteApiToken",
] as const;

export interface Outcome {
  operationId: (typeof OPERATIONS)[number];
  status: number;
  /** What was wrong with the answer (never a token), or undefined for a success. */
  problem?: string;
}

export interface Seed {
  rcAccessToken: string;
  login: LegacyCredentials;
}

const isNonEmptyString = (value: unknown): value is string => typeof value === "string" && value !== "";
const nonEmptyArray = (value: unknown) =>
  Array.isArray(value) && value.length > 0 ? undefined : "not a non-empty array";

export async function runScenario(calls: Calls, seed: Seed): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  /** One call: its outcome recorded, its data handed on when the check passes. */
  async function step<T>(
    operationId: Outcome["operationId"],
    send: () => Promise<Answer<T>>,
    check: (data: T | undefined) => string | undefined,
  ): Promise<T | undefined> {
    try {
      const { status, data } = await send();
      const problem = status >= 200 && status < 300 ? check(data) : `status ${status}`;
      outcomes.push(problem === undefined ? { operationId, status } : { operationId, status, problem });
      return problem === undefined ? data : undefined;
    } catch (error) {
      outcomes.push({ operationId, status: 0, problem: `threw ${(error as Error).name}` });
      return undefined;
    }
  }
  // A step that failed hands on a placeholder, so that every later operation is still tried.
  const missing = "missing";

  const exchanged = await step(
    "exchangeAccessToken",
    () => calls.exchangeAccessToken(seed.rcAccessToken),
    (data) =>
      isNonEmptyString(data?.accessToken) && isNonEmptyString(data?.refreshToken)
        ? undefined
        : "no access and refresh token",
  );
  const refreshed = await step(
    "refreshAccessToken",
    () => calls.refreshAccessToken(exchanged?.refreshToken ?? missing),
    (data) =>
      isNonEmptyString(data?.accessToken) && isNonEmptyString(data?.refreshToken)
        ? data.refreshToken === exchanged?.refreshToken
          ? "the refresh token was not rotated"
          : undefined
        : "no access and refresh token",
  );
  const accessToken = refreshed?.accessToken ?? exchanged?.accessToken ?? missing;
  await step("listAccounts", () => calls.listAccounts(accessToken), nonEmptyArray);
  await step("listUsers", () => calls.listUsers(accessToken), nonEmptyArray);

  const login = await step(
    "legacyLogin",
    () => calls.legacyLogin(seed.login),
    (data) => (isNonEmptyString(data?.accessToken) ? undefined : "no access token"),
  );
  const legacyToken = login?.accessToken ?? missing;
  const apiToken = await step(
    "createApiToken",
    () => calls.createApiToken(legacyToken),
    (data) => (isNonEmptyString(data) ? undefined : `not the token text but ${JSON.stringify(typeof data)}`),
  );
  await step(
    "listApiTokens",
    () => calls.listApiTokens(apiToken ?? missing),
    (data) =>
      Array.isArray(data) && data.includes(apiToken ?? "") ? undefined : "the created token is not listed",
  );
  await step(
    "deleteApiToken",
    () => calls.deleteApiToken(legacyToken, apiToken ?? missing),
    () => undefined,
  );
  return outcomes;
}
