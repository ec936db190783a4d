// The try-it console (dist/console.html): Scalar's API reference, whose request panel sends an
// operation for real, beside the published Redoc reference that has none. One self-contained page:
// Scalar's standalone bundle, the per-host documents and a small start script inlined, so it asks nothing of any
// other site. `pnpm start` fills its sandbox-settings element (sandbox-page.mjs), and the page then
// offers the sandbox first, pre-filled with its seeded credentials, and the production hosts as choices.

/**
 * Scalar's settings. Everything that would reach a Scalar service is off: the request proxy, telemetry,
 * the AI agent, MCP, the fonts from its CDN, the developer toolbar. Auth is kept in the page only.
 */
export const SCALAR_CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  proxyUrl: "",
  persistAuth: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  hideDarkModeToggle: true,
  documentDownloadType: "json",
  defaultOpenAllTags: true,
  showOperationId: true,
};

/**
 * The documents the console offers, one per host: `@engage-voice/spec`'s per-host documents, whose
 * root `servers` are each host's production addresses. Scalar 1.72's request panel sends every
 * operation to the root servers of its document, whatever a path or an operation names (it offers no
 * server at all for an operation's own), so the combined document would send the deprecated host's
 * calls to the contact-center host. The start script puts the sandbox's address first in each.
 */
export function consoleSources({ main, legacy }) {
  return [
    { slug: "main", title: "Contact-center host", content: main },
    { slug: "legacy", title: "Deprecated login host", content: legacy },
  ];
}

/** `value` as the text of a `<script type="application/json">`: only "<" could end the element early. */
const scriptJson = (value) => JSON.stringify(value).replaceAll("<", "\\u003c");

/**
 * The page: settings first (sandbox-page.mjs fills them), then the document, Scalar's bundle and the
 * start script. Throws if the bundle holds a closing script tag, which would end it early.
 */
export function consolePage({ sources, scalar, start, head }) {
  if (/<\/script/i.test(scalar) || /<\/script/i.test(start)) {
    throw new Error("a script to inline holds </script: review scripts/console-page.mjs");
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Try-it console: Voice Contact-Center API</title>
${head}
</head>
<body>
<script type="application/json" id="sandbox-settings">{}</script>
<script type="application/json" id="console-sources">${scriptJson(sources)}</script>
<script type="application/json" id="console-configuration">${scriptJson(SCALAR_CONFIGURATION)}</script>
<div id="console"></div>
<script>${scalar}</script>
<script>${start}</script>
</body>
</html>
`;
}
