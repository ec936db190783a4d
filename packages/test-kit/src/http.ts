// Raw HTTP against the hosts (the sandbox, Prism): one request read whole, the forms the token calls
// take, and checks that an answer is the documented one.
import { expect } from "vitest";
import { responseProblems, schemaProblems } from "./document.js";

export interface Answer {
  status: number;
  headers: Headers;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON answers
  json: any;
  method: string;
  path: string;
}

/** One request; the body is read as text and, when it is JSON, parsed. */
export async function call(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(base + path, init);
  const body = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const method = init.method ?? "GET";
  return {
    status: response.status,
    headers: response.headers,
    body,
    json,
    method,
    path: path.split("?")[0] as string,
  };
}

export function form(fields: Record<string, string>): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  };
}

export const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

export async function exchange(base: string, token = "sandbox-rc-token-ada", includeRefresh = true) {
  const query = includeRefresh ? "?includeRefresh=true" : "";
  return call(
    base,
    `/api/auth/login/rc/accesstoken${query}`,
    form({ rcAccessToken: token, rcTokenType: "Bearer" }),
  );
}

export async function refresh(base: string, refreshToken: string) {
  return call(base, "/api/auth/token/refresh", form({ refresh_token: refreshToken, rcTokenType: "Bearer" }));
}

export async function legacyLogin(base: string, password = "sandbox-password") {
  const query = new URLSearchParams({
    username: "lee.legacy@example.com",
    password,
    platformId: "sandbox-platform",
  });
  return call(base, `/api/auth/login/admin?${query}`, { method: "POST" });
}

/** The answer is the documented one for its operation (status, content type, headers, body). */
export function expectConforms(answer: Answer): void {
  expect(responseProblems(answer)).toEqual([]);
}

/** A JSON ApiError with `status`, whose message contains `message`. */
export function expectApiError(answer: Answer, status: number, message?: string | RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  expect(schemaProblems("ApiError", answer.json)).toEqual([]);
  expect(answer.json.requestUri).toMatch(/ - [A-Z]+$/);
  if (message !== undefined) {
    expect(answer.json.generalMessage).toMatch(message);
  }
}

export function expectJwtExpired(answer: Answer): void {
  expect(answer.status).toBe(401);
  expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
  expect(answer.body).toBe("Jwt is expired");
}
