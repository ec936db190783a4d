// Which operation of the document `api <METHOD> <path>` names, and so which host it goes to. The
// operations, their paths and hosts are the client's generated table: nothing here lists them.
import { httpMethods, operationTable, pathTemplateOf, printablePath } from "@engage-voice/client";
import { usageError } from "../../exit.js";
import { closest, closestPath } from "../../suggest.js";

export type Host = (typeof operationTable)[number]["host"];

export interface Target {
  /** In capitals, as sent. */
  method: string;
  /** The path as given, its query included: the host's origin followed by it is the URL. */
  path: string;
  /** The path's template in the document, or `undefined` for a path outside it. */
  template: string | undefined;
  /** The operation, or `undefined` for one outside the document (`--allow-unknown-path`). */
  operationId: string | undefined;
  host: Host;
}

/** Every path template of the document, once each, in its order. */
export const documentPaths = (): string[] => [...new Set(operationTable.map((op) => op.path))];

/** The document's methods of a path template, in capitals. */
const methodsOf = (template: string) =>
  operationTable.filter((op) => op.path === template).map((op) => op.method.toUpperCase());

/** Methods fetch refuses to send (the Fetch standard's forbidden methods among the document's). */
const UNSENDABLE = ["TRACE"];

/** A word as typed, quoted for a message only when it cannot be a value someone pasted. */
const quoted = (word: string) => (/^[A-Za-z]{1,12}$/.test(word) ? ` '${word}'` : "");

function methodOf(word: string): string {
  const method = word.toUpperCase();
  if (!httpMethods.includes(word.toLowerCase() as (typeof httpMethods)[number])) {
    const near = closest(word.toLowerCase(), httpMethods);
    throw usageError(
      `Unknown method${quoted(word)}${near ? ` (did you mean ${near.toUpperCase()}?)` : ""}: engage-voice api takes ${httpMethods
        .map((m) => m.toUpperCase())
        .filter((m) => !UNSENDABLE.includes(m))
        .join(", ")}`,
    );
  }
  if (UNSENDABLE.includes(method)) {
    throw usageError(`${method} cannot be sent: fetch refuses it, and the API has no ${method} operation`);
  }
  return method;
}

function checkPath(path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    throw usageError(
      "Give the path alone, from its first /: the host comes from the profile, --base-url or --legacy-base-url, so that its credential never goes elsewhere",
    );
  }
  if (!path.startsWith("/")) {
    throw usageError(
      "A path starts with / (such as /voice/api/v1/admin/accounts): run engage-voice api --help",
    );
  }
  // As the host will see it: `.` and `..` segments resolved, the query and fragment left out.
  return new URL(path, "http://host.invalid").pathname;
}

/**
 * The deprecated host's paths go there (`/voice/api/v1/admin/token/{apiToken}`), and so does a path
 * below one of them, which the document does not have; any other path to the contact-center host.
 */
function hostOfUnknown(pathname: string): Host {
  const segments = pathname.split("/");
  let best: { host: Host; length: number } | undefined;
  for (const op of operationTable) {
    const parts = op.path.split("/");
    const under =
      parts.length <= segments.length &&
      parts.every((part, i) => (part.startsWith("{") ? (segments[i] ?? "") !== "" : part === segments[i]));
    if (under && parts.length > (best?.length ?? 0)) {
      best = { host: op.host, length: parts.length };
    }
  }
  return best?.host ?? "main";
}

/**
 * `[METHOD] <path>` as an operation of the document, or a usage error naming the nearest; a path or
 * method the document does not have passes only with `allowUnknown`. A path written with its
 * parameters (`/voice/api/v1/admin/token/<token>`) matches its template. Messages print a path as its
 * template, never a value it holds.
 */
export function targetOf(positionals: readonly string[], allowUnknown: boolean): Target {
  const [first, second] = positionals;
  if (first === undefined) {
    throw usageError("engage-voice api takes [METHOD] <path>: run engage-voice api --help");
  }
  if (second !== undefined && first.startsWith("/")) {
    throw usageError("The method comes first: engage-voice api <METHOD> <path>");
  }
  const method = second === undefined ? "GET" : methodOf(first);
  const path = second ?? first;
  const pathname = checkPath(path);
  const template = pathTemplateOf(pathname);
  const operation = operationTable.find((op) => op.path === template && op.method === method.toLowerCase());
  if (operation) {
    return { method, path, template, operationId: operation.operationId, host: operation.host };
  }
  const unknown = "add --allow-unknown-path to send it anyway";
  if (!allowUnknown) {
    if (template !== undefined) {
      throw usageError(
        `The document has no ${method} ${template}: it has ${methodsOf(template).join(", ")}; ${unknown}`,
      );
    }
    const near = closestPath(pathname, documentPaths());
    throw usageError(
      `The document has no path ${printablePath(pathname)}${near ? ` (did you mean ${near}?)` : ""}: engage-voice api alone lists its operations; ${unknown}`,
    );
  }
  return { method, path, template, operationId: undefined, host: hostOfUnknown(pathname) };
}
