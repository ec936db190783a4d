// What the reference page changes in Redoc's presentation, kept apart from the build steps so that the
// layout test can name what it relies on. Nothing here changes what the document means.

import { httpMethods } from "@engage-voice/client";

/**
 * The copy of the bundled document that Redoc renders. Five changes, all leaving every operation's
 * meaning as it is:
 *
 * - Redoc's landing panel lists only the root servers, i.e. the contact-center host, and shows it as
 *   `{base_url}`. Each operation gets its effective servers written out (the root ones for the
 *   contact-center host), and the root list becomes every host's actual URLs, so a reader sees both
 *   hosts on the first screen.
 * - With `changelog` (the text of the spec's CHANGELOG.md), the introduction ends with a Changelog
 *   section of the released versions.
 * - Each operation's description ends with the `errorCode`s its documented error bodies show.
 * - Descriptions have their paragraphs on one line each (unwrapParagraphs: Redoc's search glues the
 *   words on either side of a line break).
 * - Redoc draws `additionalProperties: true` as a row `property name*` "any additional property" in
 *   every open schema. Leaving the keyword out means the same in JSON Schema; the schema's description
 *   says it in words instead.
 */
export function presentable(bundled, { changelog } = {}) {
  const document = structuredClone(bundled);
  if (changelog !== undefined) {
    document.info.description = `${document.info.description.trimEnd()}\n\n${changelogSection(changelog)}`;
  }
  const root = document.servers ?? [];
  const hosts = [...root];
  for (const item of Object.values(document.paths)) {
    for (const method of httpMethods) {
      const operation = item[method];
      if (!operation) {
        continue;
      }
      operation.servers ??= item.servers ?? root;
      for (const server of operation.servers) {
        if (!hosts.some((known) => known.url === server.url)) {
          hosts.push(server);
        }
      }
    }
  }
  document.servers = hosts.flatMap(expandServer);
  for (const item of Object.values(document.paths)) {
    for (const method of httpMethods) {
      const operation = item[method];
      const table = operation && errorCodeTable(errorCodesOf(document, operation));
      if (table) {
        operation.description = `${(operation.description ?? "").trimEnd()}\n\n${table}`;
      }
    }
  }
  visitDescriptions(document, (text) => unwrapParagraphs(text));
  visitSchemas(document, (schema) => {
    if (schema.additionalProperties !== true) {
      return;
    }
    delete schema.additionalProperties;
    schema.description = `${(schema.description ?? "").trim()}\n\nMay carry fields not listed here.`.trim();
  });
  return document;
}

/**
 * The reference's changelog section, from `@engage-voice/spec`'s CHANGELOG.md: each released version's
 * notes, newest first as the file has them, their headings one level down so that they nest under
 * "Changelog" in Redoc's sidebar.
 */
export function changelogSection(changelog) {
  const start = changelog.search(/^## /m);
  const released = start < 0 ? "" : changelog.slice(start).trim();
  const body = released
    ? released.replace(/^(#{2,5}) /gm, "#$1 ")
    : "No version of the document has been released yet.";
  return `## Changelog\n\nThe changes of each released version of the document (\`@engage-voice/spec\`), operation by operation.\n\n${body}\n`;
}

const resolveRef = (document, node) =>
  node?.$ref
    ? resolveRef(
        document,
        node.$ref
          .replace(/^#\//, "")
          .split("/")
          .reduce((parent, key) => parent[key], document),
      )
    : node;

/**
 * The `errorCode`s an operation's documented answers show, with their status and message, in the
 * order of its responses: every JSON error body among the examples of every status.
 */
export function errorCodesOf(document, operation) {
  const found = [];
  for (const [status, reference] of Object.entries(operation.responses ?? {})) {
    for (const media of Object.values(resolveRef(document, reference).content ?? {})) {
      const examples = media.examples ? Object.values(media.examples) : [{ value: media.example }];
      for (const example of examples) {
        const value = resolveRef(document, example)?.value;
        if (value && typeof value === "object" && typeof value.errorCode === "string") {
          found.push({ status, errorCode: value.errorCode, message: value.generalMessage ?? "" });
        }
      }
    }
  }
  return found;
}

/** The codes as a Markdown table under the operation's description, or nothing without any. */
function errorCodeTable(codes) {
  if (codes.length === 0) {
    return undefined;
  }
  return [
    "**Error codes seen** (observed: the `errorCode` of the JSON error bodies documented below; others may occur):",
    "",
    "| status | `errorCode` | `generalMessage` |",
    "|---|---|---|",
    ...codes.map((c) => `| ${c.status} | \`${c.errorCode}\` | ${c.message.replace(/\|/g, "\\|")} |`),
  ].join("\n");
}

/** Lines that start a block of their own in Markdown: list items, headings, tables, quotes, fences. */
const BLOCK_START = /^\s*(?:[-*+]\s|\d+[.)]\s|#|\||>|```|~~~)/;

/**
 * Joins the lines of each Markdown paragraph (and list item) with a space. The document's descriptions
 * are wrapped at a fixed width, and a soft line break means a space, but Redoc's search drops the line
 * break and shows "isthe" or "tokenand" in its excerpts. Blocks, fenced code, tables, headings and hard
 * breaks (two trailing spaces, a backslash) keep their lines.
 */
export function unwrapParagraphs(markdown) {
  const out = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    const fence = /^\s*(?:```|~~~)/.test(line);
    const previous = out.at(-1);
    const joinable =
      !fenced &&
      !fence &&
      previous !== undefined &&
      previous.trim() !== "" &&
      line.trim() !== "" &&
      !BLOCK_START.test(line) &&
      !/^\s*(?:\||#|```|~~~)/.test(previous) &&
      !/(?: {2}|\\)$/.test(previous);
    if (joinable) {
      out[out.length - 1] = `${previous.trimEnd()} ${line.trim()}`;
    } else {
      out.push(line);
    }
    if (fence) {
      fenced = !fenced;
    }
  }
  return out.join("\n");
}

/** Rewrites every `description` of the document (not example values, which are data). */
function visitDescriptions(node, rewrite) {
  if (!node || typeof node !== "object") {
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "description" && typeof value === "string") {
      node[key] = rewrite(value);
    } else if (key !== "example" && key !== "examples" && key !== "x-codeSamples") {
      visitDescriptions(value, rewrite);
    }
  }
}

/** One concrete server per URL a variable can take, the default first, each saying which variable it is. */
function expandServer(server) {
  const [name, variable] = Object.entries(server.variables ?? {})[0] ?? [];
  if (!variable || server.url !== `{${name}}`) {
    return [server];
  }
  const values = [variable.default, ...(variable.enum ?? []).filter((value) => value !== variable.default)];
  return values.map((url, i) => ({
    url,
    description:
      i === 0 ? `${server.description}: {${name}}, default` : `The same host at another address: {${name}}`,
  }));
}

function visitSchemas(node, visit, seen = new Set()) {
  if (!node || typeof node !== "object" || seen.has(node)) {
    return;
  }
  seen.add(node);
  if (!Array.isArray(node) && (node.type === "object" || node.properties)) {
    visit(node);
  }
  for (const [key, value] of Object.entries(node)) {
    // Example values are data, not schemas, whatever fields they hold.
    if (key !== "example" && key !== "examples" && key !== "x-codeSamples") {
      visitSchemas(value, visit, seen);
    }
  }
}

// Redoc 3 names its components in `data-component-name`; the rules below hold on to those names and to
// its CSS variables only, never to its generated class names.
export const REFERENCE_CSS = `
:root {
  /* More room for the text column: titles and tables wrapped into narrow strips at 1280 px. */
  --panel-samples-width: 40%;
  --h1-font-size: 28px;
  --h1-line-height: 36px;
  --h2-font-size: 24px;
  --h2-line-height: 32px;
}
/* Redoc's own rules come later in the page and are as specific: !important is what makes these hold. */
/* The "Copy page" buttons go under a heading instead of taking a third of its width. */
div:has(> div > [data-component-name^="Typography/H"]):has(> div [data-component-name="SplitButton/SplitButton"]) {
  flex-wrap: wrap !important;
}
div:has(> div [data-component-name="SplitButton/SplitButton"]) > div:has(> [data-component-name^="Typography/H"]) {
  flex: 1 1 100% !important;
}
/* Samples keep their lines as written: a line never breaks inside a URL, a flag or a token (a line
   split there reads as two, and a break after a hyphen even changes a flag). A line longer than the
   panel scrolls within its sample. The copy button gets a strip of its own above the code, so that no
   line, however long, runs under it. */
[data-component-name="CodeBlock/CodeBlockContainer"],
[data-component-name="CodeBlock/CodeBlockContainer"] * {
  white-space: pre !important;
  overflow-wrap: normal !important;
  word-break: normal !important;
}
[data-component-name="CodeBlock/CodeBlockContainer"] {
  overflow-x: auto !important;
  padding-top: 2.2rem !important;
}
/* Paths, example names and "deprecated" badges in the right-hand panels make room for each other
   (a badge or the language menu moves to the next line) instead of ending in an ellipsis. */
[data-component-name="Panel/PanelHeader"] {
  flex-wrap: wrap !important;
  row-gap: 4px;
}
[data-component-name="Panel/Panel"] [data-component-name="Button/Button"],
[data-component-name="Tooltip/Tooltip"] [data-component-name="Button/Button"] {
  height: auto !important;
  max-width: 100% !important;
}
[data-component-name="Panel/Panel"] [data-component-name="Button/Button"] span,
[data-component-name="Tooltip/Tooltip"] [data-component-name="Button/Button"] span {
  flex-wrap: wrap;
  row-gap: 4px;
  white-space: normal !important;
  overflow: visible !important;
  text-overflow: clip !important;
  overflow-wrap: anywhere;
  text-align: left;
  font-size: 13px;
}
[data-component-name="Tag/Tag"] {
  max-width: none !important;
  overflow: visible !important;
  text-overflow: clip !important;
}
/* On a phone, tables of the descriptions stack their cells: side by side, the hosts table's unbroken
   addresses are wider than the screen. */
@media (max-width: 32rem) {
  .md-table-wrapper table,
  .md-table-wrapper tbody,
  .md-table-wrapper tr,
  .md-table-wrapper td {
    display: block !important;
  }
  .md-table-wrapper thead {
    display: none !important;
  }
}
/* Host URLs and variable names in tables break only where a line may break, never inside a word. */
td code,
th code {
  word-break: normal !important;
  overflow-wrap: normal !important;
}
`;

export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b5cad"/><path d="M9 20c4 4 10 4 14 0M11 13h.01M21 13h.01" stroke="#fff" stroke-width="3" stroke-linecap="round" fill="none"/></svg>';

/** An inline icon: a page opened from disk asks for no file (pnpm start also serves it as /favicon.ico). */
export const FAVICON_LINK = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}">`;
