import { operationTable } from "./generated/hosts.js";

type Template = (typeof operationTable)[number]["path"];

/** Each documented path as a pattern: a `{parameter}` stands for one non-empty segment. */
function compile() {
  const templates = [...new Set(operationTable.map((op) => op.path))];
  return {
    templates: new Set<string>(templates),
    patterns: templates.map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}/]+\}/g, "[^/]+")}$`),
    })),
    // The words of the document's own paths: a printed path keeps these and no other.
    words: new Set(templates.flatMap((template) => template.split("/")).filter((s) => !s.startsWith("{"))),
  };
}

// Built on first use, not at load: a bundle that never calls pathTemplateOf drops it and the table.
let compiled: ReturnType<typeof compile> | undefined;

/**
 * The document's path template of a concrete request path (`/voice/api/v1/admin/token/{apiToken}`
 * for `/voice/api/v1/admin/token/aws80:…`), or `undefined` for a path the document does not have.
 * Logs and error messages print the template: a path parameter may be a credential.
 */
export function pathTemplateOf(pathname: string): Template | undefined {
  compiled ??= compile();
  return compiled.patterns.find(({ pattern }) => pattern.test(pathname))?.template;
}

/**
 * A path as logs and errors print it, whether it was written as a template or with its values, with
 * or without a query: its template, never a value. The query is dropped (the deprecated login sends
 * a password there), and a path the document does not have keeps only the words of the document's
 * own paths, each other segment shown as `{…}`.
 */
export function printablePath(path: string): string {
  compiled ??= compile();
  // The common call names its template: a lookup, not a match.
  if (compiled.templates.has(path)) {
    return path;
  }
  const pathname = path.replace(/[?#].*$/s, "");
  const { words } = compiled;
  return (
    pathTemplateOf(pathname) ??
    pathname
      .split("/")
      .map((segment) => (segment === "" || words.has(segment) ? segment : "{…}"))
      .join("/")
  );
}
