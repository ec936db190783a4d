// The published @engage-voice/spec as a user's project gets it from npm: both documents through the
// package's exports, and which release each says it is. Bun parses YAML itself (Bun.YAML), so there
// the YAML document is also parsed whole and compared with the JSON one; Node reads its version line.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import document from "@engage-voice/spec/openapi.json" with { type: "json" };

const yamlFile = fileURLToPath(import.meta.resolve("@engage-voice/spec/openapi.yaml"));
// The package exports no ./package.json: read it beside the documents, where npm put it.
const manifestUrl = new URL("../package.json", import.meta.resolve("@engage-voice/spec/openapi.json"));
const manifest = JSON.parse(await readFile(manifestUrl, "utf8"));
const yaml = await readFile(yamlFile, "utf8");
const yamlVersion =
  /^info:\n(?:[ ]{2}.*\n)*?[ ]{2}version:[ ]*["']?([^"'\n]+)["']?$/m.exec(yaml)?.[1] ?? null;
const parse = globalThis.Bun?.YAML?.parse;

console.log(
  JSON.stringify({
    name: manifest.name,
    packageVersion: manifest.version,
    jsonVersion: document.info?.version ?? null,
    yamlVersion,
    yamlSameDocument: parse ? Bun.deepEquals(parse(yaml), document, true) : null,
    paths: Object.keys(document.paths ?? {}).length,
  }),
);
