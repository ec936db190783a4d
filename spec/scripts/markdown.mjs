// Writes the document as Markdown for people and assistants, beside the bundle:
//   node scripts/markdown.mjs   reads dist/openapi.json, writes dist/llms.txt and dist/operations/<operationId>.md
//
// llms.txt (the llmstxt.org layout) introduces the API and links one page per operation; each page says
// everything a caller needs for that operation alone: host and addresses, credentials, parameters, body,
// every documented status with its body and example, the referenced schemas and the samples. Everything
// is read from the document, so the pages cannot say what it does not; test/markdown.test.mjs holds them
// to it.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { HTTP_METHODS } from "./http-methods.mjs";

/** Where a page lives, relative to dist/ (and to llms.txt beside it). */
export const operationPage = (operationId) => `operations/${operationId}.md`;

/** Every operation of the document, in document order. */
export function operationsOf(document) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({
      path,
      method,
      item,
      operation: item[method],
    })),
  );
}

const refName = (ref) => ref.split("/").pop();

function lookup(document, ref) {
  return ref
    .replace(/^#\//, "")
    .split("/")
    .reduce((parent, key) => parent[key.replace(/~1/g, "/").replace(/~0/g, "~")], document);
}

const resolve = (document, node) => (node?.$ref ? resolve(document, lookup(document, node.$ref)) : node);

/** Text for one table cell: one line, pipes escaped. */
const cell = (text) =>
  String(text ?? "")
    .trim()
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|");

/** A schema's type in a few words, naming components instead of expanding them; `used` collects them. */
function typeOf(schema, used) {
  if (!schema) {
    return "any";
  }
  if (schema.$ref) {
    used.add(refName(schema.$ref));
    return `\`${refName(schema.$ref)}\``;
  }
  for (const key of ["oneOf", "anyOf"]) {
    if (schema[key]) {
      return schema[key].map((s) => typeOf(s, used)).join(" or ");
    }
  }
  if (schema.allOf) {
    return schema.allOf.map((s) => typeOf(s, used)).join(" and ");
  }
  const types = [schema.type ?? (schema.properties ? "object" : "any")].flat();
  const named = types.map((type) => {
    if (type === "array") {
      return `array of ${typeOf(schema.items, used)}`;
    }
    return schema.format ? `${type} (${schema.format})` : type;
  });
  const values = schema.const !== undefined ? [schema.const] : schema.enum;
  const suffix = values ? `, one of ${values.map((v) => `\`${JSON.stringify(v)}\``).join(", ")}` : "";
  return `${named.join(" or ")}${suffix}`;
}

const observed = (node) => (node?.["x-observed"] ? " (observed)" : "");

/** The properties of an object schema as a table, or nothing for another kind of schema. */
function propertiesTable(schema, used) {
  const properties = Object.entries(schema?.properties ?? {});
  if (properties.length === 0) {
    return [];
  }
  const required = new Set(schema.required ?? []);
  return [
    "| field | type | required | description |",
    "|---|---|---|---|",
    ...properties.map(
      ([name, property]) =>
        `| \`${name}\` | ${cell(typeOf(property, used))} | ${required.has(name) ? "yes" : "no"} | ${cell(
          (property.description ?? "") + observed(property),
        )} |`,
    ),
  ];
}

function fence(language, text) {
  const body = typeof text === "string" ? text : JSON.stringify(text, null, 2);
  return [`\`\`\`${language}`, body, "```"];
}

/** The named examples of a media type, or its single example. */
function examplesOf(document, media) {
  if (media.examples) {
    return Object.entries(media.examples).map(([name, example]) => {
      const resolved = resolve(document, example);
      return { name: resolved.summary ?? name, value: resolved.value };
    });
  }
  return media.example === undefined ? [] : [{ name: "example", value: media.example }];
}

function mediaSection(document, type, media, used) {
  const lines = [`\`${type}\`: ${typeOf(media.schema, used)}`, ""];
  const schema = resolve(document, media.schema);
  if (!media.schema?.$ref) {
    const table = propertiesTable(schema, used);
    if (table.length) {
      lines.push(...table, "");
    }
  }
  for (const { name, value } of examplesOf(document, media)) {
    const language = type.includes("json") ? "json" : "text";
    const text =
      type === "application/x-www-form-urlencoded" && value && typeof value === "object"
        ? new URLSearchParams(value).toString()
        : value;
    lines.push(`Example (${name}):`, "", ...fence(language, text), "");
  }
  return lines;
}

/** The server addresses an operation is sent to, the default first. */
export function addressesOf(document, item, operation) {
  const servers = operation.servers ?? item.servers ?? document.servers;
  return servers.flatMap((server) => {
    const [name, variable] = Object.entries(server.variables ?? {})[0] ?? [];
    if (!variable) {
      return [{ url: server.url, description: server.description }];
    }
    const values = [variable.default, ...(variable.enum ?? []).filter((value) => value !== variable.default)];
    return values.map((value) => ({
      url: server.url.replace(`{${name}}`, value),
      description: server.description,
      variable: name,
    }));
  });
}

function securityLines(document, operation) {
  const requirements = operation.security ?? document.security ?? [];
  if (requirements.length === 0 || requirements.every((r) => Object.keys(r).length === 0)) {
    return ["None: this operation takes no credential header."];
  }
  const schemes = document.components.securitySchemes;
  const describe = (name) => {
    const scheme = schemes[name];
    const header =
      scheme.type === "http"
        ? `Authorization: ${scheme.scheme === "bearer" ? "Bearer" : scheme.scheme} <token>`
        : `${scheme.name}: <value>`;
    return `- \`${name}\`: \`${header}\`. ${cell(scheme.description)}`;
  };
  const names = requirements.flatMap((r) => Object.keys(r));
  return [
    requirements.length > 1 ? "One of these (send one header, not several):" : "Required:",
    "",
    ...names.map(describe),
  ];
}

/** One operation's page. */
export function operationMarkdown(document, { path, method, item, operation }) {
  const used = new Set();
  const lines = [`# ${operation.summary}`, ""];
  lines.push(
    [
      `\`${method.toUpperCase()} ${path}\``,
      `operationId \`${operation.operationId}\``,
      ...(operation.tags ?? []).map((tag) => `tag "${tag}"`),
      ...(operation.deprecated ? ["**deprecated**"] : []),
    ].join(" · "),
  );
  lines.push("", "## Host", "");
  const addresses = addressesOf(document, item, operation);
  lines.push(`${addresses[0]?.description ?? ""}:`, "");
  lines.push(...addresses.map((a, i) => `- \`${a.url}\`${i === 0 ? " (default)" : ""}`), "");
  if (operation.description) {
    lines.push("## Description", "", operation.description.trim(), "");
  }
  lines.push("## Credentials", "", ...securityLines(document, operation), "");

  const parameters = (operation.parameters ?? []).map((p) => resolve(document, p));
  if (parameters.length) {
    lines.push("## Parameters", "", "| name | in | type | required | description |", "|---|---|---|---|---|");
    for (const p of parameters) {
      lines.push(
        `| \`${p.name}\` | ${p.in} | ${cell(typeOf(p.schema, used))} | ${p.required ? "yes" : "no"} | ${cell(
          (p.description ?? "") + observed(p),
        )} |`,
      );
    }
    lines.push("");
  }
  const body = resolve(document, operation.requestBody);
  if (body) {
    lines.push("## Request body", "", body.required ? "Required." : "Optional.", "");
    for (const [type, media] of Object.entries(body.content)) {
      lines.push(...mediaSection(document, type, media, used));
    }
  }

  lines.push("## Responses", "");
  for (const [status, reference] of Object.entries(operation.responses)) {
    const response = resolve(document, reference);
    lines.push(
      `### ${status}${observed(reference) || observed(response)}`,
      "",
      response.description.trim(),
      "",
    );
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const resolved = resolve(document, header);
      lines.push(`Header \`${name}\`: ${cell(resolved.description)}`, "");
    }
    if (!response.content) {
      lines.push("No body.", "");
    }
    for (const [type, media] of Object.entries(response.content ?? {})) {
      lines.push(...mediaSection(document, type, media, used));
    }
  }

  // The components this page names, and those they name in turn, each once.
  const shown = new Set();
  const schemaLines = [];
  while ([...used].some((name) => !shown.has(name))) {
    const name = [...used].find((candidate) => !shown.has(candidate));
    shown.add(name);
    const schema = document.components.schemas[name];
    const table = propertiesTable(schema, used);
    schemaLines.push(`### ${name}`, "", `Type: ${typeOf({ ...schema, $ref: undefined }, used)}.`);
    if (schema.description) {
      schemaLines.push("", schema.description.trim());
    }
    schemaLines.push("", ...table, ...(table.length ? [""] : []));
  }
  if (schemaLines.length) {
    lines.push("## Schemas", "", ...schemaLines);
  }

  const samples = operation["x-codeSamples"] ?? [];
  if (samples.length) {
    lines.push("## Samples", "");
    for (const sample of samples) {
      lines.push(`### ${sample.label}`, "", ...fence(sample.lang.toLowerCase(), sample.source), "");
    }
  }
  return `${lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

/** llms.txt: what the API is, then one link per operation by tag, then the machine-readable files. */
export function llmsTxt(document) {
  const lines = [`# ${document.info.title}`, "", `> ${document.info.summary}`, ""];
  lines.push(
    `Version ${document.info.version} of the OpenAPI 3.1 contract in the npm package \`@engage-voice/spec\`. ` +
      "Each page below describes one operation in full: its host, credentials, parameters, body, every " +
      "documented status with an example, and runnable samples. Facts marked (observed) were seen on the " +
      "real service and are not guaranteed by its specification.",
    "",
  );
  const operations = operationsOf(document);
  for (const tag of document.tags ?? []) {
    const tagged = operations.filter(({ operation }) => operation.tags?.includes(tag.name));
    if (tagged.length === 0) {
      continue;
    }
    lines.push(`## ${tag.name}`, "", cell(tag.description), "");
    for (const { path, method, operation } of tagged) {
      lines.push(
        `- [${operation.summary}](${operationPage(operation.operationId)}): \`${method.toUpperCase()} ${path}\``,
      );
    }
    lines.push("");
  }
  lines.push(
    "## Optional",
    "",
    "- [openapi.json](openapi.json): the whole contract, both hosts",
    "- [openapi.main.json](openapi.main.json): the contact-center host only, for client generators",
    "- [openapi.legacy.json](openapi.legacy.json): the deprecated login host only, for client generators",
    "",
  );
  return lines.join("\n");
}

/** Writes llms.txt and the pages into `dist`, replacing any pages of operations that are gone. */
export async function writeMarkdown(document, dist) {
  await rm(new URL("operations/", dist), { recursive: true, force: true });
  await mkdir(new URL("operations/", dist), { recursive: true });
  await writeFile(new URL("llms.txt", dist), llmsTxt(document));
  for (const entry of operationsOf(document)) {
    await writeFile(
      new URL(operationPage(entry.operation.operationId), dist),
      operationMarkdown(document, entry),
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dist = new URL("../dist/", import.meta.url);
  await writeMarkdown(JSON.parse(await readFile(new URL("openapi.json", dist), "utf8")), dist);
}
