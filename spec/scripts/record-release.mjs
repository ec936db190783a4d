// Run after `changeset version`: keeps the document just released as the gate's baseline.
import { copyFile, mkdir } from "node:fs/promises";

await mkdir(new URL("../released/", import.meta.url), { recursive: true });
await copyFile(
  new URL("../dist/openapi.json", import.meta.url),
  new URL("../released/openapi.json", import.meta.url),
);
console.log("spec: dist/openapi.json recorded as the released contract");
