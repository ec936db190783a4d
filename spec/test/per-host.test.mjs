// The per-host documents: one host each, with concrete servers, together exactly the combined
// document's operations and contract, valid by the same linters as the source.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { breakingChanges } from "../scripts/contract-diff.mjs";
import { HTTP_METHODS } from "../scripts/http-methods.mjs";
import { HOSTS, hostFile } from "../scripts/per-host.mjs";

const spec = fileURLToPath(new URL("..", import.meta.url));
const read = async (file) => JSON.parse(await readFile(new URL(`../${file}`, import.meta.url), "utf8"));
const combined = await read("dist/openapi.json");
const hosts = Object.keys(HOSTS);
const documents = Object.fromEntries(
  await Promise.all(hosts.map(async (host) => [host, await read(hostFile(host))])),
);

function operationsOf(document) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({
      key: `${method.toUpperCase()} ${path}`,
      item,
      operation: item[method],
    })),
  );
}

test("the package exports each per-host document", async () => {
  const { exports, files } = await read("package.json");
  for (const host of hosts) {
    for (const extension of ["json", "yaml"]) {
      const file = hostFile(host, extension);
      assert.equal(exports[`./${file.replace(/^dist\//, "")}`], `./${file}`);
      assert.ok(files.includes(file), `${file} in files`);
    }
  }
});

for (const host of hosts) {
  test(`the ${host} document names its host by concrete URLs, with no variable and no per-operation server`, () => {
    const { servers } = documents[host];
    assert.ok(servers.length > 0);
    for (const server of servers) {
      assert.match(server.url, /^https:\/\/[a-z0-9.-]+$/, server.url);
      assert.equal(server.variables, undefined, `${server.url}: no variables`);
    }
    for (const { key, item, operation } of operationsOf(documents[host])) {
      assert.equal(item.servers, undefined, `${key}: no path servers`);
      assert.equal(operation.servers, undefined, `${key}: no operation servers`);
    }
  });
}

test("each operation of the combined document is in exactly one per-host document", () => {
  const combinedKeys = operationsOf(combined).map(({ key, operation }) => `${key} ${operation.operationId}`);
  const perHost = hosts.flatMap((host) =>
    operationsOf(documents[host]).map(({ key, operation }) => `${key} ${operation.operationId}`),
  );
  assert.deepEqual([...perHost].sort(), [...combinedKeys].sort());
  for (const host of hosts) {
    assert.ok(operationsOf(documents[host]).length > 0, `${host}: some operation`);
  }
});

test("each per-host document is the combined contract, restricted to its host", () => {
  for (const host of hosts) {
    const own = new Set(operationsOf(documents[host]).map(({ key }) => key));
    // Nothing a client of the per-host document relies on differs in the combined one, and back.
    assert.deepEqual(breakingChanges(documents[host], combined), [], `${host} -> combined`);
    const missing = breakingChanges(combined, documents[host]);
    const expected = operationsOf(combined)
      .filter(({ key }) => !own.has(key))
      .map(({ key }) => `${key}: operation removed`);
    assert.deepEqual(missing.sort(), expected.sort(), `combined -> ${host}`);
  }
});

const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
const run = promisify(execFile);

for (const host of hosts) {
  test(`the ${host} document's YAML form is its JSON form`, async () => {
    const dir = await mkdtemp(join(tmpdir(), "ev-spec-host-"));
    try {
      const out = join(dir, "from-yaml.json");
      await run(
        bin("redocly"),
        ["bundle", hostFile(host, "yaml"), "--config", "redocly.yaml", "--ext", "json", "-o", out],
        {
          cwd: spec,
        },
      );
      assert.deepEqual(JSON.parse(await readFile(out, "utf8")), documents[host]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test(`the ${host} document passes Redocly and Spectral with the source's rules`, async () => {
    const file = hostFile(host);
    await run(bin("redocly"), ["lint", file, "--config", "redocly.yaml"], { cwd: spec });
    await run(bin("spectral"), ["lint", "--fail-severity=hint", "--ruleset", ".spectral.yaml", file], {
      cwd: spec,
    });
  });
}

/** Every schema-like object of a document, with its JSON pointer. */
function* nodes(value, pointer = "") {
  if (value && typeof value === "object") {
    yield [pointer, value];
    for (const [key, child] of Object.entries(value)) {
      yield* nodes(child, `${pointer}/${key}`);
    }
  }
}

// What client generators were seen to trip on (openapi-typescript-codegen, openapi-to-postmanv2,
// ibm-openapi-validator): a `const` some ignore, an explicit `additionalProperties: true` that one
// reads as "no declared properties".
for (const [name, document] of [["combined", combined], ...hosts.map((host) => [host, documents[host]])]) {
  test(`the ${name} document has no const and no explicit additionalProperties: true`, () => {
    for (const [pointer, node] of nodes(document)) {
      if (pointer.includes("/examples/") || pointer.includes("/x-codeSamples")) {
        continue;
      }
      assert.equal("const" in node, false, `${pointer}: const`);
      assert.notEqual(node.additionalProperties, true, `${pointer}: additionalProperties: true`);
    }
  });
}

// Component names that clash with what openapi-typescript-codegen makes: its runtime class `ApiError`,
// and a parameter component `password` that became `type string = string`.
const CLASHES = { schemas: ["ApiError"], parameters: ["password"] };

test("no per-host component is named like what generators make", () => {
  for (const host of hosts) {
    for (const [type, names] of Object.entries(CLASHES)) {
      for (const name of names) {
        assert.equal(documents[host].components[type]?.[name], undefined, `${host}: ${type}/${name}`);
      }
    }
  }
});

test("an operation that takes one of several credentials says to send one header, not both", () => {
  for (const { key, operation } of operationsOf(combined)) {
    if ((operation.security ?? []).length > 1) {
      assert.match(operation.description, /one of the two headers, not both/, key);
    }
  }
});
