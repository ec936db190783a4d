// The bundled OpenAPI document as a test oracle: which operation a request is, whether a value is
// valid against a schema, and whether a response (status, content type, headers, body) is one that
// its operation declares. The one Ajv-plus-document loader of the tests.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv2020 from "ajv/dist/2020.js";

const require = createRequire(import.meta.url);
type Json = Record<string, unknown>;

export const document = JSON.parse(
  readFileSync(require.resolve("@engage-voice/spec/openapi.json"), "utf8"),
) as {
  paths: Record<string, Record<string, Json>>;
  components: Json;
};

/**
 * Every operation of the document, in its order: its `operationId`, method and path template. An
 * operation is a path item member with an `operationId` (the client's generator refuses one without),
 * so no list of methods is kept here. For counts and coverage checks that must follow the document.
 */
export const documentOperations: { operationId: string; method: string; path: string }[] = Object.entries(
  document.paths,
).flatMap(([path, item]) =>
  Object.entries(item).flatMap(([method, operation]) =>
    typeof operation?.operationId === "string" ? [{ operationId: operation.operationId, method, path }] : [],
  ),
);

const ajv = new Ajv2020({ strict: false, allErrors: true });
// OpenAPI formats that JSON Schema does not define; the types already constrain them.
for (const format of ["int32", "int64", "password"]) {
  ajv.addFormat(format, true);
}
ajv.addSchema(document, "openapi.json");

const pointerSegment = (segment: string) =>
  encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"));

function at(pointer: string): unknown {
  return pointer
    .replace(/^#\//, "")
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], document);
}

// The client's `pathTemplateOf` is the one matcher of paths, but this package cannot import it: the
// client's tests depend on this package, and a dependency back would be a cycle turbo refuses. The
// same rule is compiled here once, from the document the client's table is generated from, and the
// sandbox's tests hold the two to the same answers (packages/sandbox/test/operations.test.ts).
const templates = Object.keys(document.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}/]+\}/g, "[^/]+")}$`),
}));

/** The document's path template of a concrete request path, as the client's `pathTemplateOf` answers. */
function templateOf(path: string): string | undefined {
  return templates.find(({ pattern }) => pattern.test(path))?.template;
}

/** The operation of a concrete request path, with its template (`/voice/api/v1/admin/token/{apiToken}`). */
export function operationOf(method: string, path: string): { template: string; operation: Json } | undefined {
  const template = templateOf(path);
  const operation = template === undefined ? undefined : document.paths[template]?.[method.toLowerCase()];
  return template === undefined || operation === undefined ? undefined : { template, operation };
}

/** Throws with Ajv's reasons unless `value` is valid against `#/components/schemas/<name>`. */
export function assertSchema(name: string, value: unknown): void {
  const problems = schemaProblems(name, value);
  if (problems.length > 0) {
    throw new Error(problems.join("; "));
  }
}

/** Validates a value against `#/components/schemas/<name>`; answers Ajv's reasons, or an empty list. */
export function schemaProblems(name: string, value: unknown): string[] {
  const validate = ajv.getSchema(`openapi.json#/components/schemas/${name}`);
  if (!validate) {
    return [`no schema ${name}`];
  }
  return validate(value) ? [] : [`${name}: ${ajv.errorsText(validate.errors)}`];
}

export interface Observed {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  body: string;
}

/** Everything about a response that the document does not allow for its operation; empty when it conforms. */
export function responseProblems({ method, path, status, headers, body }: Observed): string[] {
  const found = operationOf(method, path);
  if (!found) {
    return [`${method} ${path} is no operation of the document`];
  }
  const where = `${method} ${found.template} ${status}`;
  const responses = found.operation.responses as Json;
  let pointer = `#/paths/${pointerSegment(found.template)}/${method.toLowerCase()}/responses/${status}`;
  let response = responses[String(status)] as Json | undefined;
  if (!response) {
    return [`${where}: status not declared`];
  }
  if (typeof response.$ref === "string") {
    pointer = response.$ref;
    response = at(pointer) as Json;
  }
  const problems: string[] = [];
  for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
    const value = headers.get(name);
    const resolved = (typeof header.$ref === "string" ? at(header.$ref) : header) as Json;
    const schema = resolved.schema as Json | undefined;
    if (value === null) {
      problems.push(`${where}: header ${name} missing`);
    } else if (schema?.type === "integer" && !/^\d+$/.test(value)) {
      problems.push(`${where}: header ${name} not an integer`);
    }
  }
  const content = response.content as Json | undefined;
  const mediaType = (headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!content) {
    if (body !== "") {
      problems.push(`${where}: a body where none is declared`);
    }
    return problems;
  }
  if (!(mediaType in content)) {
    return [...problems, `${where}: content type ${mediaType || "(none)"} not declared`];
  }
  const validate = ajv.getSchema(`openapi.json${pointer}/content/${pointerSegment(mediaType)}/schema`);
  if (!validate) {
    return [...problems, `${where}: no schema for ${mediaType}`];
  }
  let value: unknown = body;
  if (mediaType.endsWith("json")) {
    try {
      value = JSON.parse(body);
    } catch {
      return [...problems, `${where}: body is not JSON`];
    }
  }
  if (!validate(value)) {
    problems.push(`${where}: ${ajv.errorsText(validate.errors)}`);
  }
  return problems;
}
