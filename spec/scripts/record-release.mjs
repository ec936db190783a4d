// Run after `changeset version`: keeps the document just released as the gate's baseline, and writes
// the version just released into the source's `info.version`, which names the same release.
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { withInfoVersion } from "./info-version.mjs";

await mkdir(new URL("../released/", import.meta.url), { recursive: true });
await copyFile(
  new URL("../dist/openapi.json", import.meta.url),
  new URL("../released/openapi.json", import.meta.url),
);
const { version } = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
const source = new URL("../openapi.yaml", import.meta.url);
await writeFile(source, withInfoVersion(await readFile(source, "utf8"), version));
console.log(`spec: dist/openapi.json recorded as the released contract, openapi.yaml at ${version}`);
