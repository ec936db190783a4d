// `pnpm start` (after `turbo run build`): the stateful sandbox of both hosts, the API reference, the
// try-it console and a stateless Prism mock, all on 127.0.0.1, with their URLs and a copy-paste example; Ctrl-C stops them.
// `--ephemeral-ports` takes free ports instead of the usual ones (tests run it that way);
// `DOCS_PORT=N` sets the docs server's port (8080 when free by default).

import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { fillMarkdown, fillReference, fillSandbox } from "@engage-voice/docs/scripts/sandbox-page.mjs";
import { describeSandbox, startSandbox } from "@engage-voice/sandbox";
import { chosenPort, stopOnSignals } from "@engage-voice/test-kit/processes";
import { portInUse, serveStatic, startPrism } from "@engage-voice/test-kit/servers";

const docsDist = fileURLToPath(import.meta.resolve("@engage-voice/docs/dist/"));
const ephemeral = process.argv.includes("--ephemeral-ports");
const DOCS_PORT = 8080;

const docsPort = await chosenPort("DOCS_PORT", "pnpm start");
// Before any server is spawned, so that a signal while they start stops the ones started.
const stops = stopOnSignals();

/**
 * The usual port when it is free, 0 otherwise: each server then binds a port the system gives it. A
 * free port picked here could be taken by another program before the server binds it, and Prism's
 * readiness probe would then ask that program (seen with two CI runs side by side).
 */
const taken = [];
async function port(preferred) {
  if (ephemeral) {
    return 0;
  }
  if (await portInUse(preferred)) {
    taken.push(preferred);
    return 0;
  }
  return preferred;
}

const sandbox = await startSandbox({ mainPort: await port(4020), legacyPort: await port(4021) });
stops.add(() => sandbox.stop());
const prism = await startPrism({ port: await port(4010) });
stops.add(() => prism.stop());
// The getting-started page and the try-it console show the sandbox's addresses and credentials when
// served from here, and the reference's samples call the sandbox.
const FILLED = new Set(["/index.html", "/console.html"]);
const hostAddresses = async (host) =>
  JSON.parse(
    await readFile(fileURLToPath(import.meta.resolve(`@engage-voice/spec/openapi.${host}.json`)), "utf8"),
  ).servers.map((server) => server.url);
const hosts = { main: await hostAddresses("main"), legacy: await hostAddresses("legacy") };
const docs = await serveStatic(docsDist, {
  port: docsPort ?? (await port(DOCS_PORT)),
  transform: (pathname, body) => {
    if (FILLED.has(pathname)) {
      return fillSandbox(body.toString("utf8"), sandbox, { mockUrl: prism.url });
    }
    if (pathname === "/llms.txt" || (pathname.startsWith("/operations/") && pathname.endsWith(".md"))) {
      return fillMarkdown(body.toString("utf8"), sandbox, hosts);
    }
    return pathname === "/reference.html" ? fillReference(body.toString("utf8"), sandbox, hosts) : body;
  },
});
stops.add(() => docs.stop());

console.log(`${describeSandbox(sandbox)}

  (To run those lines, save them as example.mjs at the repository root, then: node example.mjs)

API reference          ${docs.url}/reference.html
Try-it console         ${docs.url}/console.html  (sends requests: this sandbox first, credentials pre-filled)
Getting started        ${docs.url}/  (its commands run on this sandbox as shown)
Bundled document       ${docs.url}/openapi.json
For assistants         ${docs.url}/llms.txt  (Markdown: one page per operation, under /operations/)
Prism mock             ${prism.url}  (both hosts, stateless, answers from the document's examples)

Use the sandbox to develop against behaviour (tokens expire, refresh tokens rotate, permanent tokens
disappear after a delete); use the mock to check requests against the contract.
Ctrl-C stops everything.`);
if (taken.length > 0) {
  console.log(
    `\nThe usual port${taken.length === 1 ? "" : "s"} ${taken.join(", ")} ${taken.length === 1 ? "was" : "were"} in use (another pnpm start?): free ones were taken instead, as printed above.`,
  );
}

stops.ready();
