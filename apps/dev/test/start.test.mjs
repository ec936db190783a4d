// `pnpm start`'s server (src/start.mjs, on free ports) comes up, serves what it prints, and its
// printed curl and TypeScript examples work exactly as printed. Needs `pnpm build` first.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startProcess } from "@engage-voice/test-kit/processes";

// The printed example says to run it from the repository root, whose devDependencies hold auth.
const root = fileURLToPath(new URL("../../..", import.meta.url));
const startScript = fileURLToPath(new URL("../src/start.mjs", import.meta.url));
const run = promisify(execFile);
let started;
let output = "";

before(async () => {
  started = startProcess(process.execPath, [startScript, "--ephemeral-ports"]);
  await started.waitForOutput(/Ctrl-C stops everything\./, 60_000).catch((error) => {
    throw new Error(`${error.message}:\n${started.output.stdout}${started.output.stderr}`);
  });
  output = started.output.stdout + started.output.stderr;
});

after(async () => {
  await started?.stop("SIGTERM", 15_000);
  await rm(`${root}example.mjs`, { force: true });
});

const url = (label) => {
  const match = output.match(new RegExp(`${label}\\s+(http://127\\.0\\.0\\.1:\\d+)`));
  assert.ok(match, `no URL for ${label} in:\n${output}`);
  return match[1];
};

test("serves only on 127.0.0.1 and prints every URL", () => {
  for (const label of [
    "\\{base_url\\}",
    "\\{legacy_base_url\\}",
    "API reference",
    "Try-it console",
    "Prism mock",
  ]) {
    url(label);
  }
  assert.doesNotMatch(output, /http:\/\/(?!127\.0\.0\.1)/);
});

test("the API reference and the bundled document are served", async () => {
  const docs = url("API reference");
  const page = await fetch(`${docs}/reference.html`);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /Voice Contact-Center API reference/);
  const spec = await (await fetch(`${docs}/openapi.json`)).json();
  assert.equal(spec.openapi, "3.1.0");
});

test("the reference's samples call this sandbox, not production", async () => {
  const page = await (await fetch(`${url("API reference")}/reference.html`)).text();
  const sources = [...page.matchAll(/"source":"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
  assert.ok(sources.length > 0);
  for (const source of sources) {
    assert.doesNotMatch(source, /https:\/\//, source.slice(0, 80));
  }
  assert.ok(sources.some((source) => source.includes(url("\\{base_url\\}"))));
  assert.ok(sources.some((source) => source.includes(url("\\{legacy_base_url\\}"))));
});

test("the getting-started page is served with this sandbox's addresses, and /favicon.ico answers", async () => {
  const docs = url("API reference");
  const page = await (await fetch(`${docs}/`)).text();
  const settings = JSON.parse(page.match(/id="sandbox-settings">([^<]*)</)?.[1] ?? "null");
  assert.equal(settings?.mainUrl, url("\\{base_url\\}"));
  assert.equal(settings?.legacyUrl, url("\\{legacy_base_url\\}"));
  assert.equal(settings?.mockUrl, url("Prism mock"));
  const icon = await fetch(`${docs}/favicon.ico`);
  assert.equal(icon.status, 200);
  assert.equal(icon.headers.get("content-type"), "image/svg+xml");
});

test("the try-it console is served with this sandbox's addresses and seeded credentials", async () => {
  const page = await (await fetch(`${url("Try-it console")}/console.html`)).text();
  const settings = JSON.parse(page.match(/id="sandbox-settings">([^<]*)</)?.[1] ?? "null");
  assert.equal(settings?.mainUrl, url("\\{base_url\\}"));
  assert.equal(settings?.legacyUrl, url("\\{legacy_base_url\\}"));
  assert.ok(settings?.rcAccessToken && output.includes(settings.rcAccessToken), "the printed parent token");
});

test("llms.txt and the Markdown page of each operation it links are served", async () => {
  const llms = await fetch(url("For assistants").concat("/llms.txt"));
  assert.equal(llms.headers.get("content-type"), "text/plain; charset=utf-8");
  const links = [...(await llms.text()).matchAll(/\]\((operations\/[^)]+\.md)\)/g)].map((match) => match[1]);
  const spec = await (await fetch(`${url("API reference")}/openapi.json`)).json();
  const operationIds = Object.values(spec.paths).flatMap((item) =>
    Object.values(item).flatMap((operation) => operation.operationId ?? []),
  );
  assert.deepEqual(links.sort(), operationIds.map((id) => `operations/${id}.md`).sort());
  const production = spec.servers.map((server) => server.url);
  for (const link of links) {
    const page = await fetch(`${url("For assistants")}/${link}`);
    assert.equal(page.status, 200, link);
    assert.equal(page.headers.get("content-type"), "text/markdown; charset=utf-8");
    // As every other page served beside the sandbox: its hosts, not production's.
    const text = await page.text();
    for (const host of production) {
      assert.ok(!text.includes(host), `${link} names ${host}`);
    }
    assert.ok(
      text.includes(url("\\{base_url\\}")) || text.includes(url("\\{legacy_base_url\\}")),
      `${link} names neither sandbox host`,
    );
  }
});

test("a pnpm start whose usual ports are taken says which, and takes free ones", async () => {
  // The usual ports held here (or already held by someone else): none is left to take.
  const holders = [];
  for (const port of [4020, 4021, 4010, 8080]) {
    const holder = createServer();
    const held = await new Promise((resolve) => {
      holder.once("error", () => resolve(false));
      holder.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (held) {
      holders.push(holder);
    }
  }
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "DOCS_PORT"));
  const second = startProcess(process.execPath, [startScript], { env });
  try {
    await second.waitForOutput(/in use \(another pnpm start\?\)/, 60_000);
    const said =
      /The usual ports? ([\d, ]+) (?:was|were) in use \(another pnpm start\?\): free ones were taken instead/.exec(
        second.output.stdout + second.output.stderr,
      );
    assert.ok(said, second.output.stdout);
    // Each port held here is named; one another program held may have been let go meanwhile.
    for (const holder of holders) {
      assert.ok(said[1].split(", ").includes(String(holder.address().port)), said[0]);
    }
  } finally {
    await second.stop("SIGTERM", 15_000);
    for (const holder of holders) {
      holder.close();
    }
  }
});

test("the Prism mock answers from the document", async () => {
  const response = await fetch(`${url("Prism mock")}/voice/api/v1/admin/accounts`, {
    headers: { Authorization: "Bearer any" },
  });
  assert.equal(response.status, 200);
  assert.ok(Array.isArray(await response.json()));
});

test("the printed curl lines work as printed", async () => {
  const script = output.slice(output.indexOf("Try it with curl:") + 17, output.indexOf("Or with the client"));
  const { stdout } = await run("bash", ["-eo", "pipefail", "-c", script], { timeout: 20_000 });
  const accounts = JSON.parse(stdout);
  assert.ok(accounts.length > 0 && accounts.every((account) => /^\d+$/.test(account.accountId)));
});

test("the printed TypeScript lines run as printed, from the repository root", async () => {
  const start = output.indexOf("(TypeScript or ES module):") + 26;
  const source = output
    .slice(start, output.indexOf("\n\n", output.indexOf("console.log", start)))
    .split("\n")
    .map((line) => line.replace(/^ {2}/, ""))
    .join("\n");
  await writeFile(`${root}example.mjs`, source);
  const { stdout } = await run(process.execPath, ["example.mjs"], { cwd: root, timeout: 20_000 });
  assert.match(stdout, /Sandbox Sales/);
});

/** Runs start.mjs with `env` until it prints its URLs or exits; stops it then. */
async function startWith(env) {
  const run = startProcess(process.execPath, [startScript, "--ephemeral-ports"], {
    env: { ...process.env, ...env },
  });
  const ready = await run.waitForOutput(/Ctrl-C stops everything\./, 60_000).then(
    () => true,
    () => false,
  );
  const code = await run.stop("SIGTERM", 15_000);
  return { code: ready ? null : code, printed: run.output.stdout + run.output.stderr };
}

test("DOCS_PORT sets the docs server's port; a bad or busy one is refused before anything starts", async () => {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const busy = probe.address().port;
  try {
    const refused = await startWith({ DOCS_PORT: String(busy) });
    assert.equal(refused.code, 1);
    assert.match(
      refused.printed,
      new RegExp(`port ${busy} on 127\\.0\\.0\\.1 is in use.*DOCS_PORT=${busy + 1} pnpm start`),
    );
    assert.doesNotMatch(refused.printed, /Sandbox|Prism/);
    const invalid = await startWith({ DOCS_PORT: "eighty" });
    assert.equal(invalid.code, 2);
    assert.match(invalid.printed, /DOCS_PORT must be a port number/);
  } finally {
    await new Promise((resolve) => probe.close(resolve));
  }
  // The port just freed is the one asked for now.
  const chosen = await startWith({ DOCS_PORT: String(busy) });
  assert.match(
    chosen.printed,
    new RegExp(`API reference\\s+http://127\\.0\\.0\\.1:${busy}/reference\\.html`),
  );
});
