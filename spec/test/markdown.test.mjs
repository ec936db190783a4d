// The Markdown made from the document (dist/llms.txt, dist/operations/<operationId>.md) says what the
// document says: a page for every operation and no other, each naming its method and path, every
// address, credential, parameter and documented status with its examples, and every sample as it is;
// llms.txt links every page. The files in dist are what the generator makes of today's document.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { test } from "node:test";
import {
  addressesOf,
  llmsTxt,
  operationMarkdown,
  operationPage,
  operationsOf,
} from "../scripts/markdown.mjs";

const dist = new URL("../dist/", import.meta.url);
const document = JSON.parse(await readFile(new URL("openapi.json", dist), "utf8"));
const operations = operationsOf(document);
const page = (entry) => readFile(new URL(operationPage(entry.operation.operationId), dist), "utf8");

function resolve(node) {
  if (!node?.$ref) {
    return node;
  }
  return resolve(
    node.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce((parent, key) => parent[key], document),
  );
}

/** What a page must show of each example: a form as it is sent, JSON as printed, text as it is. */
function exampleTexts(type, media) {
  const values = media.examples
    ? Object.values(media.examples).map((example) => resolve(example).value)
    : media.example === undefined
      ? []
      : [media.example];
  return values.map((value) => {
    if (type === "application/x-www-form-urlencoded") {
      return new URLSearchParams(value).toString();
    }
    return typeof value === "string" ? value : JSON.stringify(value, null, 2);
  });
}

test("one page per operation, and no other page", async () => {
  const pages = (await readdir(new URL("operations/", dist))).sort();
  assert.deepEqual(pages, operations.map(({ operation }) => `${operation.operationId}.md`).sort());
});

test("each page names its operation, addresses, credentials, parameters, every status, example and sample", async () => {
  for (const entry of operations) {
    const { path, method, item, operation } = entry;
    const text = await page(entry);
    const id = operation.operationId;
    assert.ok(text.startsWith(`# ${operation.summary}\n`), `${id}: title`);
    assert.ok(text.includes(`\`${method.toUpperCase()} ${path}\``), `${id}: method and path`);
    for (const { url } of addressesOf(document, item, operation)) {
      assert.ok(text.includes(`\`${url}\``), `${id}: address ${url}`);
    }
    for (const requirement of operation.security ?? []) {
      for (const scheme of Object.keys(requirement)) {
        assert.ok(text.includes(`\`${scheme}\``), `${id}: credential ${scheme}`);
      }
    }
    for (const parameter of (operation.parameters ?? []).map(resolve)) {
      assert.ok(
        text.includes(`| \`${parameter.name}\` | ${parameter.in} |`),
        `${id}: parameter ${parameter.name}`,
      );
    }
    for (const [type, media] of Object.entries(resolve(operation.requestBody)?.content ?? {})) {
      for (const example of exampleTexts(type, media)) {
        assert.ok(text.includes(example), `${id}: request example ${example}`);
      }
    }
    const headings = [...text.matchAll(/^### (\d{3})\b/gm)].map((match) => match[1]);
    assert.deepEqual(headings, Object.keys(operation.responses), `${id}: every status, in order`);
    for (const [status, reference] of Object.entries(operation.responses)) {
      const response = resolve(reference);
      const section = text.slice(text.indexOf(`### ${status}`)).split(/^##+ (?!\d)/m)[0] ?? "";
      assert.ok(section.includes(response.description.trim()), `${id} ${status}: description`);
      for (const [type, media] of Object.entries(response.content ?? {})) {
        assert.ok(section.includes(`\`${type}\``), `${id} ${status}: ${type}`);
        for (const example of exampleTexts(type, media)) {
          assert.ok(section.includes(example), `${id} ${status}: example ${example.slice(0, 40)}`);
        }
      }
    }
    for (const sample of operation["x-codeSamples"] ?? []) {
      assert.ok(text.includes(sample.source), `${id}: ${sample.label} sample`);
    }
  }
});

test("llms.txt links every operation's page, and only pages that exist", async () => {
  const text = await readFile(new URL("llms.txt", dist), "utf8");
  assert.ok(text.startsWith(`# ${document.info.title}\n\n> ${document.info.summary}\n`));
  const links = [...text.matchAll(/\]\((operations\/[^)]+)\)/g)].map((match) => match[1]).sort();
  assert.deepEqual(links, operations.map(({ operation }) => operationPage(operation.operationId)).sort());
});

test("the files in dist are what the generator makes of the document", async () => {
  assert.equal(await readFile(new URL("llms.txt", dist), "utf8"), llmsTxt(document));
  for (const entry of operations) {
    assert.equal(await page(entry), operationMarkdown(document, entry), entry.operation.operationId);
  }
});
