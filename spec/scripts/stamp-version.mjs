// Sets `info.version` of the bundled document to the package's version, so the published contract
// says which release it is.
import { readFile, writeFile } from "node:fs/promises";

const { version } = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
const json = new URL("../dist/openapi.json", import.meta.url);
const yaml = new URL("../dist/openapi.yaml", import.meta.url);
const document = JSON.parse(await readFile(json, "utf8"));
document.info.version = version;
await writeFile(json, `${JSON.stringify(document, null, 2)}\n`);
const text = await readFile(yaml, "utf8");
const stamped = text.replace(/^(info:\n(?:[ ]{2}.*\n)*?[ ]{2}version:)[^\n]*$/m, `$1 ${version}`);
if (stamped === text && !text.includes(`version: ${version}`)) {
  throw new Error("info.version not found in dist/openapi.yaml");
}
await writeFile(yaml, stamped);
