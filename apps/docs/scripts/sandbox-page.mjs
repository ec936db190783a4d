// The getting-started page (apps/docs/dist/index.html) as `pnpm start` serves it: with the sandbox's
// addresses and seeded credentials in its settings element, so that every command on it works there.
// Opened from disk the page keeps its production values and asks for nothing.

const SETTINGS = /(<script type="application\/json" id="sandbox-settings">)[\s\S]*?(<\/script>)/;

/**
 * The page with the sandbox's settings (and the Prism mock's address, when one runs) filled in; throws
 * if the page no longer has the element.
 */
export function fillSandbox(html, { mainUrl, legacyUrl, seed }, { mockUrl } = {}) {
  const [parent] = seed.parentTokens;
  const [login] = seed.legacyLogins;
  if (!parent || !login) {
    throw new Error("the sandbox has no seeded credentials to show");
  }
  if (!SETTINGS.test(html)) {
    throw new Error("index.html has no sandbox-settings element");
  }
  const settings = {
    mainUrl,
    legacyUrl,
    rcAccessToken: parent.token,
    username: login.username,
    password: login.password,
    platformId: login.platformId,
    ...(mockUrl ? { mockUrl } : {}),
  };
  // Inside <script>, only "<" could end the element early; \u003c keeps the JSON as it is.
  const json = JSON.stringify(settings).replaceAll("<", "\\u003c");
  return html.replace(SETTINGS, (_, open, close) => `${open}${json}${close}`);
}

/** A JSON-escaped `"source":"…"` string of the page's inlined document: an x-codeSamples entry. */
const SAMPLE_SOURCE = /"source":"((?:[^"\\]|\\.)*)"/g;

/**
 * The reference (dist/reference.html) as `pnpm start` serves it: every sample's production address
 * replaced by the sandbox's host that stands for it, so that a copied sample runs there. `hosts` names
 * each host's production addresses (the per-host documents' servers). The rest of the page (servers,
 * descriptions) keeps production: it describes the service. Throws if the page holds no sample.
 */
export function fillReference(html, { mainUrl, legacyUrl }, hosts) {
  const replacements = [
    ...hosts.main.map((url) => [url, mainUrl]),
    ...hosts.legacy.map((url) => [url, legacyUrl]),
  ];
  let samples = 0;
  const filled = html.replace(SAMPLE_SOURCE, (_, source) => {
    samples += 1;
    const local = replacements.reduce((text, [from, to]) => text.replaceAll(from, to), source);
    return `"source":"${local}"`;
  });
  if (samples === 0) {
    throw new Error("reference.html has no code sample to point at the sandbox");
  }
  return filled;
}

/**
 * A Markdown page for assistants (`llms.txt`, `operations/*.md`) with the production hosts replaced by
 * the sandbox's, as every other page served beside the sandbox shows them.
 */
export function fillMarkdown(text, { mainUrl, legacyUrl }, hosts) {
  const replacements = [
    ...hosts.main.map((url) => [url, mainUrl]),
    ...hosts.legacy.map((url) => [url, legacyUrl]),
  ];
  return replacements.reduce((filled, [from, to]) => filled.replaceAll(from, to), text);
}
