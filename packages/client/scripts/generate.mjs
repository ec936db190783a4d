// Generates src/generated/ from the bundled OpenAPI document (spec/dist/openapi.json).
//   node scripts/generate.mjs          write src/generated/
//   node scripts/generate.mjs --check  regenerate into a temporary folder and fail on any difference
// Generated files are never edited by hand: change the spec or this script, then regenerate.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const require = createRequire(import.meta.url);
const specPath = require.resolve("@engage-voice/spec/openapi.json");
const dirArg = process.argv.indexOf("--dir");
const target = dirArg > 0 ? process.argv[dirArg + 1] : new URL("../src/generated/", import.meta.url).pathname;
const HEADER =
  "// Generated from spec/dist/openapi.json by packages/client/scripts/generate.mjs. Do not edit.\n";
// The one list of HTTP methods lives beside the document's sources (spec/scripts/http-methods.mjs);
// it is not part of what @engage-voice/spec publishes, so it is read from the workspace's copy, next to
// the bundle this script reads. The generated table carries it on as `httpMethods`.
const { HTTP_METHODS } = await import(new URL("../scripts/http-methods.mjs", pathToFileURL(specPath)).href);

/** Which host serves each path, and which operations take a form body, read from the document. */
function describeHosts(doc) {
  const rootServer = doc.servers[0].url;
  const hosts = { main: [], legacy: [] };
  const formOperations = {};
  const defaults = {};
  const operations = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const servers = new Set();
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) {
        continue;
      }
      const server = (op.servers ?? item.servers ?? doc.servers)[0];
      servers.add(server.url);
      const variable = server.url.match(/^\{(\w+)\}$/)?.[1];
      if (!variable) {
        throw new Error(`${method.toUpperCase()} ${path}: server url must be one variable`);
      }
      defaults[variable] = server.variables[variable].default;
      if (op.requestBody?.content?.["application/x-www-form-urlencoded"]) {
        formOperations[path] = [...(formOperations[path] ?? []), method];
      }
      if (!op.operationId) {
        throw new Error(`${method.toUpperCase()} ${path}: no operationId`);
      }
      operations.push({
        operationId: op.operationId,
        method,
        path,
        host: server.url === rootServer ? "main" : "legacy",
      });
    }
    if (servers.size !== 1) {
      throw new Error(`${path}: its operations are split across hosts`);
    }
    hosts[[...servers][0] === rootServer ? "main" : "legacy"].push(path);
  }
  return { hosts, formOperations, defaults, operations };
}

function hostsModule(doc) {
  const { hosts, formOperations, defaults, operations } = describeHosts(doc);
  const union = (list) => list.map((p) => JSON.stringify(p)).join(" | ");
  return `${HEADER}
/** Paths served by the contact-center host, \`{base_url}\`. */
export type MainPath = ${union(hosts.main)};

/** Paths served by the deprecated login host, \`{legacy_base_url}\`. */
export type LegacyPath = ${union(hosts.legacy)};

/** The operations a path item can hold (OpenAPI 3.1), as the document writes them: the one list of HTTP methods. */
export const httpMethods = ${JSON.stringify(HTTP_METHODS)} as const;

/** A method of {@link httpMethods}. */
export type HttpMethod = (typeof httpMethods)[number];

/** Default server of each host, as the document gives it. */
export const defaultBaseUrls = ${JSON.stringify({ main: defaults.base_url, legacy: defaults.legacy_base_url }, null, 2)} as const;

/** Operations whose request body is \`application/x-www-form-urlencoded\`, by path. */
export const formOperations: Readonly<Record<string, readonly string[]>> = ${JSON.stringify(formOperations, null, 2)};

/**
 * Every operation of the document, in its order: the one list of operations. The sandbox's routes,
 * the tests' fakes and the samples derive from it, so an operation added to the document reaches them.
 */
export const operationTable = ${JSON.stringify(operations, null, 2)} as const;

/** The \`operationId\` of each operation of the document. */
export type OperationId = (typeof operationTable)[number]["operationId"];
`;
}

/**
 * The `pattern` of each string schema of the document, as a RegExp: the code that checks a value
 * against one (an API token before it is sent) reads it from here, so the document stays its home.
 */
function patternsModule(doc) {
  const entries = Object.entries(doc.components?.schemas ?? {})
    .filter(([, schema]) => typeof schema.pattern === "string")
    .map(([name, schema]) => `  ${name}: ${String(new RegExp(schema.pattern, "u"))},`);
  return `${HEADER}
/** The \`pattern\` of each string schema of the document, by schema name. */
export const schemaPatterns = {
${entries.join("\n")}
} as const;
`;
}

async function generate(outDir) {
  const doc = JSON.parse(await readFile(specPath, "utf8"));
  const ast = await openapiTS(pathToFileURL(specPath), { alphabetize: false });
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, "schema.ts"), HEADER + astToString(ast));
  await writeFile(join(outDir, "hosts.ts"), hostsModule(doc));
  await writeFile(join(outDir, "patterns.ts"), patternsModule(doc));
}

async function check() {
  const tmp = await mkdtemp(join(tmpdir(), "engage-voice-generated-"));
  try {
    await generate(tmp);
    const expected = (await readdir(tmp)).sort();
    const actual = (await readdir(target).catch(() => [])).sort();
    const problems = [];
    for (const name of new Set([...expected, ...actual])) {
      const want = await readFile(join(tmp, name), "utf8").catch(() => null);
      const have = await readFile(join(target, name), "utf8").catch(() => null);
      if (want === null) {
        problems.push(`${name}: not produced by the generator (remove it)`);
      } else if (have === null) {
        problems.push(`${name}: missing`);
      } else if (want !== have) {
        problems.push(`${name}: differs from what the spec generates`);
      }
    }
    if (problems.length) {
      console.error(`src/generated/ is out of date with spec/dist/openapi.json:\n  ${problems.join("\n  ")}`);
      console.error("Generated code is not edited by hand: change the spec, then run `pnpm generate`.");
      process.exitCode = 1;
    } else {
      console.log("src/generated/ matches the spec.");
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

if (process.argv.includes("--check")) {
  await check();
} else {
  await generate(target);
  console.log(`wrote ${target}`);
}
