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
