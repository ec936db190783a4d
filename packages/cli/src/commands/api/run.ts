// `engage-voice api`: one request, authorised as the other commands' are, and its answer printed.
import { readFile } from "node:fs/promises";
import { operationTable, printablePath } from "@engage-voice/client";
import { callPolicyOf, formOperations, runCall } from "@engage-voice/client/internal";
import type { Context } from "../../command.js";
import { session } from "../../context.js";
import { ENV } from "../../env.js";
import { usageError } from "../../exit.js";
import { readAll, readStdin, table } from "../../terminal.js";
import { answerError, callOptions, print } from "../shared.js";
import { answerText, errorLine, headerLines } from "./answer.js";
import { bodyOf, type Field, queryOf, rawField, readsStdin, typedField } from "./fields.js";
import type { apiOptions } from "./options.js";
import { type Target, targetOf } from "./target.js";

type ApiContext = Context<typeof apiOptions>;

/** The most `--input` or a `-F key=@file` reads: far above any body of this API, short of a memory problem. */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** Methods whose fields go into a body; the others' go to the query string (as gh api does for GET). */
const BODY_METHODS = ["POST", "PUT", "PATCH"];

/** What would read stdin: at most one may. */
function stdinReaders(ctx: ApiContext): string[] {
  const { values } = ctx;
  return [
    ...(values.input === "-" ? ["--input -"] : []),
    ...(values.field ?? []).filter(readsStdin).map(() => "-F key=@-"),
    ...(values["api-token-stdin"] ? ["--api-token-stdin"] : []),
  ];
}

async function fileText(path: string, what: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw usageError(`${what}: the file could not be read${typeof code === "string" ? ` (${code})` : ""}`);
  }
}

async function fieldsOf(ctx: ApiContext): Promise<Field[]> {
  const stdin = ctx.io.stdin;
  const sources = {
    file: async (path: string) => {
      const bytes = await fileText(path, "-F key=@FILE");
      if (bytes.byteLength > MAX_INPUT_BYTES) {
        throw usageError(`-F key=@FILE: the file is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`);
      }
      return bytes.toString("utf8");
    },
    stdin: async () =>
      (await ctx.deadline.paused(readAll(stdin, "-F key=@-", MAX_INPUT_BYTES))).toString("utf8"),
  };
  const typed: Field[] = [];
  for (const text of ctx.values.field ?? []) {
    typed.push(await typedField(text, sources));
  }
  // Raw fields first, then typed ones, as gh api orders them.
  return [...(ctx.values["raw-field"] ?? []).map(rawField), ...typed];
}

interface Outgoing {
  url: URL;
  headers: Headers;
  body: Uint8Array<ArrayBuffer> | string | undefined;
}

async function requestOf(ctx: ApiContext, target: Target, origin: string): Promise<Outgoing> {
  const url = new URL(`${origin}${target.path}`);
  // The path follows the origin whole, so no path can name another host; checked all the same.
  if (url.origin !== origin) {
    throw usageError("The path must stay on the host: give it from its first /");
  }
  const fields = await fieldsOf(ctx);
  const headers = new Headers({ Accept: "application/json, text/plain;q=0.9, */*;q=0.1" });
  const input = ctx.values.input;
  if (input !== undefined) {
    if (target.method === "GET" || target.method === "HEAD") {
      throw usageError(
        `--input sends a body, which ${target.method} does not take: give the method that does`,
      );
    }
    queryOf(fields, url.searchParams);
    headers.set("Content-Type", "application/json");
    const body =
      input === "-"
        ? await ctx.deadline.paused(readAll(ctx.io.stdin, "--input -", MAX_INPUT_BYTES))
        : await fileText(input, "--input FILE");
    if (body.byteLength > MAX_INPUT_BYTES) {
      throw usageError(`--input FILE is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`);
    }
    return { url, headers, body: new Uint8Array(body) };
  }
  if (fields.length === 0 || !BODY_METHODS.includes(target.method)) {
    queryOf(fields, url.searchParams);
    return { url, headers, body: undefined };
  }
  // The document's form operations (the token exchange and refresh) take their fields as a form.
  if (target.template && formOperations[target.template]?.includes(target.method.toLowerCase())) {
    const form = new URLSearchParams();
    queryOf(fields, form);
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    return { url, headers, body: form.toString() };
  }
  headers.set("Content-Type", "application/json");
  return { url, headers, body: JSON.stringify(bodyOf(fields)) };
}

/** The permanent API token for the deprecated host, when one is given (never as a flag). */
async function apiTokenOf(ctx: ApiContext): Promise<string | undefined> {
  if (ctx.values["api-token-stdin"]) {
    return ctx.deadline.paused(readStdin(ctx.io.stdin, "The API token"));
  }
  return ctx.io.env[ENV.apiToken] || undefined;
}

/**
 * Sends the request: on the contact-center host through the session's own fetch (which renews the
 * token and sends the call again after a 401); on the deprecated host with the API token, or the
 * session's access token, under the client's call policy (its deadline and retries).
 */
async function send(ctx: ApiContext, target: Target, apiToken: string | undefined): Promise<Response> {
  const origin = target.host === "main" ? ctx.baseUrl : ctx.legacyBaseUrl;
  ctx.at.host = origin;
  const { url, headers, body } = await requestOf(ctx, target, origin);
  const init = { method: target.method, headers, redirect: "manual" as const, ...(body ? { body } : {}) };
  if (target.host === "main") {
    const auth = await session(ctx);
    return auth.fetch(url, { ...init, ...(ctx.timeoutMs === undefined ? {} : { timeoutMs: ctx.timeoutMs }) });
  }
  if (apiToken) {
    ctx.at.fromProfile = false;
    headers.set("X-Auth-Token", apiToken);
  } else {
    headers.set("Authorization", `Bearer ${await (await session(ctx)).getAccessToken()}`);
  }
  const policy = callPolicyOf({ ...callOptions(ctx), sleep: ctx.sleep });
  const call = { method: target.method, template: target.template ?? printablePath(url.pathname), origin };
  const result = await runCall(
    call,
    policy,
    undefined,
    async (signal) => ({ response: await ctx.fetch(url, { ...init, signal }) }),
    true,
  );
  return result.response;
}

/** Every credential this command may have sent or holds: an error body that echoes one is cut. */
async function credentialsOf(ctx: ApiContext, apiToken: string | undefined): Promise<string[]> {
  const stored = await ctx
    .store(ctx.tokenPath)
    .get()
    .catch(() => undefined);
  return [stored?.accessToken, stored?.refreshToken, ctx.io.env[ENV.parentToken], apiToken].filter(
    (value): value is string => typeof value === "string" && value !== "",
  );
}

function listOperations(ctx: ApiContext): void {
  const rows = operationTable.map((op) => ({
    method: op.method.toUpperCase(),
    path: op.path,
    host: op.host === "main" ? "contact-center" : "deprecated",
    operationId: op.operationId,
  }));
  print(ctx, rows, () =>
    table(
      ["METHOD", "PATH", "HOST", "OPERATION"],
      rows.map((r) => [r.method, r.path, r.host, r.operationId]),
    ),
  );
}

export async function api(ctx: ApiContext): Promise<void> {
  if (ctx.positionals.length === 0) {
    listOperations(ctx);
    return;
  }
  if (ctx.values.table) {
    throw usageError("engage-voice api prints the answer as it is: --table does not apply");
  }
  const target = targetOf(ctx.positionals, ctx.values["allow-unknown-path"] === true);
  const readers = stdinReaders(ctx);
  if (readers.length > 1) {
    throw usageError(
      `stdin can be read once, and ${readers.join(" and ")} each read it: give one of them a file`,
    );
  }
  if (
    target.method === "GET" &&
    ctx.positionals.length === 1 &&
    (ctx.values.field || ctx.values["raw-field"] || ctx.values.input !== undefined)
  ) {
    throw usageError(
      "Fields or --input without a method: name it (GET sends the fields as a query string, POST as a JSON body); a write is never implied",
    );
  }
  if (ctx.values["api-token-stdin"] && target.host !== "legacy") {
    throw usageError(
      "--api-token-stdin is for the deprecated host's paths; the contact-center host takes the profile's session",
    );
  }
  const apiToken = target.host === "legacy" ? await apiTokenOf(ctx) : undefined;
  const response = await send(ctx, target, apiToken);
  const text = await response.text();
  if (ctx.values.include) {
    ctx.out(headerLines(response));
  }
  if (response.status >= 200 && response.status < 300) {
    ctx.out(answerText(text, response.headers.get("Content-Type"), ctx.io.stdout.isTTY === true));
    return;
  }
  const hidden = [...(await credentialsOf(ctx, apiToken)), ...pathValues(target)];
  if (text !== "") {
    ctx.err(errorLine(text, response.headers.get("Content-Type"), hidden));
  }
  throw await answerError(ctx, response, parsedOrUndefined(text));
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The values written in the path (a token in `/voice/api/v1/admin/token/<token>`) and its query: an
 * error body that echoes the request's address must not print them on stderr.
 */
function pathValues(target: Target): string[] {
  const url = new URL(target.path, "http://host.invalid");
  const template = target.template?.split("/");
  const segments = url.pathname.split("/");
  const inPath = segments.filter((segment, i) =>
    template
      ? template[i]?.startsWith("{") === true
      : segment !== "" && !printablePath(`/${segment}`).includes(segment),
  );
  const decoded = (value: string) => {
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  };
  return [...inPath, ...url.searchParams.values()]
    .flatMap((value) => [value, decoded(value), encodeURIComponent(value)])
    .filter((value) => value.length >= 4);
}
