// Adds `x-codeSamples` (curl, TypeScript with @engage-voice/client and @engage-voice/auth, Python with
// requests, Java with the JDK's HttpClient) to every operation of a bundled document, in place:  node scripts/code-samples.mjs dist/openapi.json
//
// The samples are derived from the document itself (host, method, path, parameters, form body,
// security), so they cannot drift from it; apps/docs runs every one against the sandbox. A new input
// without a placeholder name below fails the bundle, so that no sample ever shows a made-up value where
// a reader's secret belongs.
import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { HTTP_METHODS } from "./http-methods.mjs";

const FORM = "application/x-www-form-urlencoded";

/**
 * Shell variables for the values a reader supplies. The `EV_` prefix keeps clear of variables the
 * shell already sets (`$USER`, `$USERNAME`), which would silently send the reader's login name.
 */
export const PLACEHOLDERS = {
  rcAccessToken: "RC_ACCESS_TOKEN",
  refresh_token: "REFRESH_TOKEN",
  username: "EV_USERNAME",
  password: "EV_PASSWORD",
  platformId: "EV_PLATFORM_ID",
  apiToken: "API_TOKEN",
};
/** The credential each security scheme sends. */
const SCHEME_PLACEHOLDERS = { bearerAuth: "ACCESS_TOKEN", apiToken: "API_TOKEN" };

// Characters that stand for themselves inside a path segment (RFC 3986 unreserved, plus ':'). A path
// value goes into the curl URL as it is, so the document's example must show it needs no encoding.
const PATH_SAFE = /^[A-Za-z0-9._~:-]+$/;

const resolve = (document, node) => {
  if (!node?.$ref) {
    return node;
  }
  const target = node.$ref
    .replace(/^#\//, "")
    .split("/")
    .reduce((parent, key) => parent[key.replace(/~1/g, "/").replace(/~0/g, "~")], document);
  return resolve(document, target);
};

/** A fixed value (a const, a one-value enum or a flag), or undefined for one the reader supplies. */
function fixedValue(schema, example) {
  if (schema?.const !== undefined) {
    return schema.const;
  }
  if (schema?.enum?.length === 1) {
    return schema.enum[0];
  }
  if (schema?.type === "boolean") {
    return example ?? true;
  }
  return undefined;
}

function placeholder(name, where) {
  const variable = PLACEHOLDERS[name];
  if (!variable) {
    throw new Error(`${where}: no placeholder for "${name}"; add one to PLACEHOLDERS`);
  }
  return variable;
}

/** Everything a sample needs, read from one operation. */
function describe(document, path, method, operation) {
  const where = `${method.toUpperCase()} ${path}`;
  const server = (operation.servers ?? document.servers)[0];
  const variable = server.url.match(/^\{(\w+)\}$/)?.[1];
  if (!variable) {
    throw new Error(`${where}: the server url must be one variable`);
  }
  const inputs = (operation.parameters ?? []).map((p) => resolve(document, p));
  const param = (p) => {
    const fixed = fixedValue(p.schema, p.example);
    return {
      name: p.name,
      value: fixed,
      variable: fixed === undefined ? placeholder(p.name, where) : undefined,
    };
  };
  const query = inputs.filter((p) => p.in === "query").map(param);
  const pathParams = inputs.filter((p) => p.in === "path").map(param);
  for (const p of inputs.filter((p) => p.in === "path")) {
    if (!PATH_SAFE.test(String(p.example))) {
      throw new Error(`${where}: ${p.name} needs percent-encoding`);
    }
  }
  if (inputs.some((p) => p.in !== "query" && p.in !== "path")) {
    throw new Error(`${where}: unsupported parameter`);
  }
  const content = operation.requestBody?.content;
  if (content && !content[FORM]) {
    throw new Error(`${where}: only form bodies are supported`);
  }
  const formSchema = content && resolve(document, content[FORM].schema);
  const form = formSchema
    ? Object.entries(formSchema.properties).map(([name, schema]) => {
        const fixed = fixedValue(resolve(document, schema));
        return { name, value: fixed, variable: fixed === undefined ? placeholder(name, where) : undefined };
      })
    : [];
  const schemes = (operation.security ?? document.security ?? []).flatMap(Object.keys);
  const scheme = schemes[0] && resolve(document, document.components.securitySchemes[schemes[0]]);
  if (scheme && !SCHEME_PLACEHOLDERS[schemes[0]]) {
    throw new Error(`${where}: no placeholder for security scheme "${schemes[0]}"`);
  }
  return {
    path,
    method,
    baseUrl: server.variables[variable].default,
    main: server.url === document.servers[0].url,
    query,
    pathParams,
    form,
    security: scheme && { name: schemes[0], scheme, variable: SCHEME_PLACEHOLDERS[schemes[0]] },
  };
}

/**
 * A shell word: single-quoted when fixed, double-quoted when it holds `$VARIABLE`s to expand. The text
 * comes from the document (URLs, names, constants), so anything the quotes would not protect is refused.
 */
function quote(text) {
  if (/["'`\\]|\$(?![A-Z_]+)/.test(text)) {
    throw new Error(`cannot quote ${text} for the shell`);
  }
  return text.includes("$") ? `"${text}"` : `'${text}'`;
}

function curl(op) {
  const fixedQuery = op.query.filter((q) => q.variable === undefined);
  const search = fixedQuery.length
    ? `?${fixedQuery.map((q) => `${q.name}=${encodeURIComponent(q.value)}`).join("&")}`
    : "";
  let path = op.path;
  for (const p of op.pathParams) {
    path = path.replace(`{${p.name}}`, p.variable ? `$${p.variable}` : p.value);
  }
  const lines = [];
  if (op.query.some((q) => q.variable)) {
    lines.push("# --url-query (curl 7.87 or later) percent-encodes each value, as the endpoint needs");
  }
  const method = op.form.length ? "" : op.method === "get" ? "" : `-X ${op.method.toUpperCase()} `;
  lines.push(`curl ${method}${quote(`${op.baseUrl}${path}${search}`)}`);
  for (const q of op.query.filter((q) => q.variable)) {
    lines.push(`  --url-query ${quote(`${q.name}=$${q.variable}`)}`);
  }
  if (op.security) {
    const header =
      op.security.scheme.type === "http"
        ? `Authorization: Bearer $${op.security.variable}`
        : `${op.security.scheme.name}: $${op.security.variable}`;
    lines.push(`  -H ${quote(header)}`);
  }
  for (const field of op.form) {
    // --data-urlencode sends the form as application/x-www-form-urlencoded, each value encoded.
    lines.push(
      `  --data-urlencode ${quote(`${field.name}=${field.variable ? `$${field.variable}` : field.value}`)}`,
    );
  }
  return lines
    .map((line, i) => (i < lines.length - 1 && !line.startsWith("#") ? `${line} \\` : line))
    .join("\n");
}

const env = (variable) => `process.env.${variable}!`;
const literal = (field) => (field.variable ? env(field.variable) : JSON.stringify(field.value));
/** An object literal, on one line when it fits a narrow sample panel, else one field a line. */
const object = (fields, indent) => {
  const entries = fields.map((f) => `${f.name}: ${literal(f)}`);
  const line = `{ ${entries.join(", ")} }`;
  if (line.length <= 60) {
    return line;
  }
  return `{\n${entries.map((e) => `${indent}  ${e},`).join("\n")}\n${indent}}`;
};

function typescript(op) {
  const imports = [];
  const setup = [];
  const factory = op.main ? "createClient" : "createLegacyClient";
  const init = [];
  setup.push(`const baseUrl = ${JSON.stringify(op.baseUrl)};`);
  let ownClient = true;
  if (op.security?.scheme.type === "http" && op.main) {
    // The auth package's README's first shape: the manager makes the client it authorises.
    imports.push('import { createTokenManager } from "@engage-voice/auth";');
    setup.push(
      "// Exchanges the parent-platform token, then renews the access token ahead of expiry.",
      `const auth = createTokenManager({ baseUrl, rcAccessToken: ${env("RC_ACCESS_TOKEN")} });`,
      "const client = auth.client();",
    );
    ownClient = false;
  } else if (op.security?.scheme.type === "apiKey") {
    imports.push('import { apiTokenMiddleware } from "@engage-voice/auth";');
    setup.push(
      `const client = ${factory}({ baseUrl });`,
      `client.use(apiTokenMiddleware(${env(op.security.variable)}, { baseUrl })); // ${op.security.scheme.name}`,
    );
  } else {
    setup.push(`const client = ${factory}({ baseUrl });`);
    if (op.security) {
      init.push(`headers: { Authorization: \`Bearer \${process.env.${op.security.variable}}\` },`);
    }
  }
  if (ownClient) {
    imports.push(`import { ${factory} } from "@engage-voice/client";`);
  }
  const params = [];
  if (op.pathParams.length) {
    params.push(`path: ${object(op.pathParams, "    ")}`);
  }
  if (op.query.length) {
    params.push(`query: ${object(op.query, "    ")}`);
  }
  if (params.length === 1 && !params[0].includes("\n")) {
    init.push(`params: { ${params[0]} },`);
  } else if (params.length) {
    init.push(`params: {\n${params.map((p) => `    ${p},`).join("\n")}\n  },`);
  }
  if (op.form.length) {
    init.push(`body: ${object(op.form, "  ")},`);
  }
  const call = `await client.${op.method.toUpperCase()}(${JSON.stringify(op.path)}`;
  const request = init.length ? [`${call}, {`, ...init.map((line) => `  ${line}`), "});"] : [`${call});`];
  return [
    ...imports,
    "",
    ...setup,
    `const { data, error, response } = ${request[0]}`,
    ...request.slice(1),
    "console.log(response.status, data ?? error);",
  ].join("\n");
}

/** A Python string literal: the document's text (URLs, names, constants) holds no quote or backslash. */
function pyString(text) {
  if (/["\\\n]/.test(text)) {
    throw new Error(`cannot quote ${text} for Python`);
  }
  return `"${text}"`;
}
const pyValue = (field) =>
  field.variable ? `os.environ["${field.variable}"]` : pyString(String(field.value));
/** A dict literal, on one line when short, else one entry a line. */
const pyDict = (fields) => {
  const entries = fields.map((f) => `"${f.name}": ${pyValue(f)}`);
  const line = `{${entries.join(", ")}}`;
  return line.length <= 60 ? line : `{\n${entries.map((e) => `        ${e},`).join("\n")}\n    }`;
};

/** Python with requests: it encodes the query and the form itself. */
function python(op) {
  let path = op.path;
  for (const p of op.pathParams) {
    // Single quotes inside the f-string: Python before 3.12 ends it at a double quote.
    path = path.replace(`{${p.name}}`, p.variable ? `{os.environ['${p.variable}']}` : p.value);
  }
  const url = op.pathParams.some((p) => p.variable) ? `f"${op.baseUrl}${path}"` : pyString(op.baseUrl + path);
  const args = [url];
  if (op.query.length) {
    args.push(`params=${pyDict(op.query)}`);
  }
  if (op.security) {
    const header =
      op.security.scheme.type === "http"
        ? `{"Authorization": f"Bearer {os.environ['${op.security.variable}']}"}`
        : `{"${op.security.scheme.name}": os.environ["${op.security.variable}"]}`;
    args.push(`headers=${header}`);
  }
  if (op.form.length) {
    args.push(`data=${pyDict(op.form)}`);
  }
  args.push("timeout=30");
  return [
    "import os",
    "",
    "import requests",
    "",
    `response = requests.${op.method}(`,
    ...args.map((arg) => `    ${arg},`),
    ")",
    "print(response.status_code, response.text)",
  ].join("\n");
}

const javaString = (text) => {
  if (/["\\\n]/.test(text)) {
    throw new Error(`cannot quote ${text} for Java`);
  }
  return `"${text}"`;
};
const getenv = (variable) => `System.getenv(${javaString(variable)})`;

/**
 * A Java string expression from parts: `{ text }` is fixed (joined with its neighbours into one
 * literal), `{ code }` an expression. One part a line when long.
 */
function javaConcat(parts, indent) {
  const merged = [];
  for (const part of parts.filter((p) => p.text !== "")) {
    const last = merged.at(-1);
    if (part.text !== undefined && last?.text !== undefined) {
      last.text += part.text;
    } else {
      merged.push({ ...part });
    }
  }
  const terms = merged.map((part) => (part.text !== undefined ? javaString(part.text) : part.code));
  const line = terms.join(" + ");
  if (line.length <= 70) {
    return line;
  }
  // A fixed part starts a line: `"&name=" + enc(...)` stays together.
  return terms.reduce((text, term, i) =>
    i === 0 ? term : `${text}${merged[i]?.text !== undefined ? `\n${indent}+ ` : " + "}${term}`,
  );
}

/** `name=value&…`, each value form-encoded: a fixed one here, a reader's by `enc()` at run time. */
const formParts = (fields) =>
  fields.flatMap((f, i) => [
    { text: `${i ? "&" : ""}${f.name}=` },
    f.variable ? { code: `enc(${getenv(f.variable)})` } : { text: encodeURIComponent(String(f.value)) },
  ]);
const className = (operationId) => operationId[0].toUpperCase() + operationId.slice(1);

/** Java 11+ with the JDK's own HttpClient; runs as it is with `java File.java`. */
function java(op, operationId) {
  const body = [];
  const url = [{ text: op.baseUrl }];
  for (const segment of op.path.split(/(\{\w+\})/)) {
    const p = op.pathParams.find((candidate) => `{${candidate.name}}` === segment);
    url.push(p ? (p.variable ? { code: getenv(p.variable) } : { text: String(p.value) }) : { text: segment });
  }
  if (op.query.length) {
    body.push(`    String query = ${javaConcat(formParts(op.query), "        ")};`);
    url.push({ text: "?" }, { code: "query" });
  }
  if (op.form.length) {
    body.push(`    String form = ${javaConcat(formParts(op.form), "        ")};`);
  }
  body.push(`    String url = ${javaConcat(url, "        ")};`);
  const builder = ["HttpRequest.newBuilder(URI.create(url))"];
  if (op.security) {
    builder.push(
      op.security.scheme.type === "http"
        ? `.header("Authorization", "Bearer " + ${getenv(op.security.variable)})`
        : `.header(${javaString(op.security.scheme.name)}, ${getenv(op.security.variable)})`,
    );
  }
  if (op.form.length) {
    builder.push(
      '.header("Content-Type", "application/x-www-form-urlencoded")',
      ".POST(HttpRequest.BodyPublishers.ofString(form))",
    );
  } else if (op.method === "post") {
    builder.push(".POST(HttpRequest.BodyPublishers.noBody())");
  } else {
    builder.push(`.${op.method.toUpperCase()}()`);
  }
  builder.push(".build();");
  const encodes = op.query.some((q) => q.variable) || op.form.some((f) => f.variable);
  return [
    "import java.net.URI;",
    ...(encodes ? ["import java.net.URLEncoder;"] : []),
    "import java.net.http.HttpClient;",
    "import java.net.http.HttpRequest;",
    "import java.net.http.HttpResponse;",
    ...(encodes ? ["import java.nio.charset.StandardCharsets;"] : []),
    "",
    `public class ${className(operationId)} {`,
    ...(encodes
      ? [
          "  static String enc(String value) {",
          "    return URLEncoder.encode(value, StandardCharsets.UTF_8);",
          "  }",
          "",
        ]
      : []),
    "  public static void main(String[] args) throws Exception {",
    ...body,
    `    HttpRequest request = ${builder[0]}`,
    ...builder.slice(1).map((line) => `        ${line}`),
    "    HttpResponse<String> response =",
    "        HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());",
    '    System.out.println(response.statusCode() + " " + response.body());',
    "  }",
    "}",
  ].join("\n");
}

/** The samples of every operation, keyed `METHOD path`. */
export function codeSamples(document) {
  const samples = {};
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      if (!item[method]) {
        continue;
      }
      const op = describe(document, path, method, item[method]);
      samples[`${method.toUpperCase()} ${path}`] = [
        { lang: "Shell", label: "curl", source: curl(op) },
        { lang: "TypeScript", label: "TypeScript", source: typescript(op) },
        { lang: "Python", label: "Python", source: python(op) },
        { lang: "Java", label: "Java", source: java(op, item[method].operationId) },
      ];
    }
  }
  return samples;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file?.endsWith(".json")) {
    throw new Error("usage: node scripts/code-samples.mjs <bundled openapi.json>");
  }
  const document = JSON.parse(await readFile(file, "utf8"));
  const samples = codeSamples(document);
  for (const [key, list] of Object.entries(samples)) {
    const [method, path] = key.split(" ");
    document.paths[path][method.toLowerCase()]["x-codeSamples"] = list;
  }
  await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`added x-codeSamples to ${Object.keys(samples).length} operations of ${file}`);
}
