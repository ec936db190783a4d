// Builds the published reference from the bundled document: dist/reference.html (Redoc, with its
// scripts inlined so the page works offline) and dist/index.html (getting started with the auth flows).
import { execFile } from "node:child_process";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { promisify } from "node:util";

const require = createRequire(import.meta.url);
const spec = require.resolve("@engage-voice/spec/openapi.json");
const dist = new URL("../dist/", import.meta.url).pathname;
const redocly = require.resolve("@redocly/cli/bin/cli.js");

// Redoc's attribution badge loads its logo from a CDN even with --inlineBundle. The page must make no
// request at all (it is opened offline), so the badge keeps its text and link but draws an inline logo.
const CDN_LOGOS = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const INLINE_LOGO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="14"><text x="0" y="11" font-family="sans-serif" font-size="11" fill="#555">Redocly</text></svg>',
)}`;

await mkdir(dist, { recursive: true });
const reference = `${dist}reference.html`;
await promisify(execFile)(process.execPath, [
  redocly,
  "build-docs",
  spec,
  "--inlineBundle",
  "--title",
  "Voice Contact-Center API reference",
  "-o",
  reference,
]);
const html = await readFile(reference, "utf8");
if (!CDN_LOGOS.test(html))
  throw new Error("Redoc no longer references its CDN logo: review scripts/build.mjs");
await writeFile(reference, html.replace(CDN_LOGOS, INLINE_LOGO));
await copyFile(new URL("../src/getting-started.html", import.meta.url), `${dist}index.html`);
console.log(`wrote ${dist}reference.html and ${dist}index.html`);
