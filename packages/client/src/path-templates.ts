import { operationTable } from "./generated/hosts.js";

type Template = (typeof operationTable)[number]["path"];

/** Each documented path as a pattern: a `{parameter}` stands for one non-empty segment. */
function compile() {
  return [...new Set(operationTable.map((op) => op.path))].map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}/]+\}/g, "[^/]+")}$`),
  }));
}

// Built on first use, not at load: a bundle that never calls pathTemplateOf drops it and the table.
let patterns: ReturnType<typeof compile> | undefined;

/**
 * The document's path template of a concrete request path (`/voice/api/v1/admin/token/{apiToken}`
 * for `/voice/api/v1/admin/token/aws80:…`), or `undefined` for a path the document does not have.
 * Logs and error messages print the template: a path parameter may be a credential.
 */
export function pathTemplateOf(pathname: string): Template | undefined {
  patterns ??= compile();
  return patterns.find(({ pattern }) => pattern.test(pathname))?.template;
}
