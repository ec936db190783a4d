// Builds the published reference from the bundled document: dist/reference.html (Redoc, with its
// scripts inlined so the page works offline), dist/index.html (getting started with the auth flows),
// dist/console.html (the try-it console, Scalar, also self-contained), the bundled document itself
// next to them, which the reference offers for download, and llms.txt with a Markdown page per operation.
import { execFile } from "node:child_process";
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { consolePage, consoleSources } from "./console-page.mjs";
import { FAVICON_LINK, FAVICON_SVG, presentable, REFERENCE_CSS } from "./present.mjs";

const require = createRequire(import.meta.url);
const specJson = require.resolve("@engage-voice/spec/openapi.json");
const specYaml = require.resolve("@engage-voice/spec/openapi.yaml");
const dist = new URL("../dist/", import.meta.url).pathname;
const redocly = require.resolve("@redocly/cli/bin/cli.js");
const scalar = join(dirname(require.resolve("@scalar/api-reference")), "browser/standalone.js");

// Redoc's attribution badge loads its logo from a CDN even with --inlineBundle. The page must make no
// request at all (it is opened offline), so the badge keeps its text and link but draws an inline logo.
const CDN_LOGOS = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const INLINE_LOGO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="14"><text x="0" y="11" font-family="sans-serif" font-size="11" fill="#555">Redocly</text></svg>',
)}`;

/** Puts `text` just before `marker`, failing loudly if a Redoc update moved the marker. */
function insertBefore(html, marker, text) {
  const at = html.indexOf(marker);
  if (at < 0) {
    throw new Error(`${marker} not found in the page: review scripts/build.mjs`);
  }
  return html.slice(0, at) + text + html.slice(at);
}

await mkdir(dist, { recursive: true });
await copyFile(specJson, `${dist}openapi.json`);
await copyFile(specYaml, `${dist}openapi.yaml`);
// The per-host documents and the Markdown made from the document (llms.txt links them all), as
// @engage-voice/spec ships them.
for (const host of ["main", "legacy"]) {
  await copyFile(require.resolve(`@engage-voice/spec/openapi.${host}.json`), `${dist}openapi.${host}.json`);
}
const llms = require.resolve("@engage-voice/spec/llms.txt");
await copyFile(llms, `${dist}llms.txt`);
await rm(`${dist}operations`, { recursive: true, force: true });
await cp(join(dirname(llms), "operations"), `${dist}operations`, { recursive: true });
await writeFile(`${dist}favicon.svg`, FAVICON_SVG);

// Redoc renders a copy arranged for reading (see present.mjs); the download links offer the document
// exactly as bundled.
const scratch = await mkdtemp(join(tmpdir(), "engage-voice-docs-"));
const rendered = join(scratch, "openapi.json");
// The spec package ships its CHANGELOG.md beside dist/ (its exports name the documents only).
const changelog = await readFile(join(dirname(specJson), "..", "CHANGELOG.md"), "utf8");
await writeFile(
  rendered,
  JSON.stringify(presentable(JSON.parse(await readFile(specJson, "utf8")), { changelog })),
);
const reference = `${dist}reference.html`;
await promisify(execFile)(process.execPath, [
  redocly,
  "build-docs",
  rendered,
  "--inlineBundle",
  "--config",
  new URL("redocly.yaml", import.meta.url).pathname,
  "--title",
  "Voice Contact-Center API reference",
  "-o",
  reference,
]);
await rm(scratch, { recursive: true, force: true });
let html = await readFile(reference, "utf8");
if (!CDN_LOGOS.test(html)) {
  throw new Error("Redoc no longer references its CDN logo: review scripts/build.mjs");
}
html = html.replace(CDN_LOGOS, INLINE_LOGO);
if (!html.includes('"disableTelemetry":true')) {
  throw new Error(
    "Redoc's telemetry is on (it would report to otel.cloud.redocly.com): review scripts/redocly.yaml",
  );
}
html = insertBefore(html, "</head>", `${FAVICON_LINK}\n<style>${REFERENCE_CSS}</style>\n`);
await writeFile(reference, html);
const guide = await readFile(new URL("../src/getting-started.html", import.meta.url), "utf8");
await writeFile(`${dist}index.html`, insertBefore(guide, "</head>", `${FAVICON_LINK}\n`));
await writeFile(
  `${dist}console.html`,
  consolePage({
    sources: consoleSources({
      main: JSON.parse(await readFile(require.resolve("@engage-voice/spec/openapi.main.json"), "utf8")),
      legacy: JSON.parse(await readFile(require.resolve("@engage-voice/spec/openapi.legacy.json"), "utf8")),
    }),
    scalar: await readFile(scalar, "utf8"),
    start: await readFile(new URL("../src/console-start.js", import.meta.url), "utf8"),
    head: FAVICON_LINK,
  }),
);
console.log(`wrote ${dist}reference.html, index.html, console.html, the bundled document and the icon`);
