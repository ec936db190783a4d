// Debian's Chromium as every page test drives it: headless, no sandbox (tests run as root), no GPU,
// and none of the browser's own background traffic, so that any request a test sees is the page's.
import { mkdir } from "node:fs/promises";
import { type Browser, chromium, type Page } from "playwright-core";
import { onTestFailed } from "vitest";

/** Where the page tests write their screenshots. */
const artifacts = new URL("../test-results/", import.meta.url).pathname;

/**
 * Screenshots of every page the tests pass through, for a reader checking the layout by eye:
 * `DOCS_SCREENSHOTS=1 pnpm --filter @engage-voice/docs test`. The verdicts are measured in the page,
 * not read off an image, and encoding the images was about a fifth of the page tests' CPU, so a plain
 * run takes one only when a test fails: of the whole page as it was then (`failed-<test>.png`).
 */
export const everyScreenshot = process.env.DOCS_SCREENSHOTS === "1";

/** Writes `test-results/<name>.png`. */
async function save(page: Page, name: string, options: { fullPage?: boolean }) {
  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: `${artifacts}${name}.png`, ...options });
}

/** A screenshot to `test-results/<name>.png`, when they were asked for. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  if (everyScreenshot) {
    await save(page, name, options);
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
}

/**
 * Opens a page, recording every request other than the page's own file and every console error. From
 * disk the network is cut, so nothing could load even if the page asked.
 */
export async function openPage(browser: Browser, url: string, width: number) {
  const local = url.startsWith("file:");
  const context = await browser.newContext({ offline: local, viewport: { width, height: 900 } });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => {
    const target = request.url();
    if (/^(data|blob):/.test(target) || (local ? target.startsWith("file:") : target === url)) {
      return;
    }
    requests.push(`${request.method()} ${target}`);
  });
  page.on("console", (message) => {
    if (message.type() === "error") {
      errors.push(message.text());
    }
  });
  page.on("pageerror", (error) => errors.push(error.message));
  screenshotOnFailure(page);
  await page.goto(url, { waitUntil: "load" });
  return { page, requests, errors, close: () => context.close() };
}

/** A page as openPage opened it, with what it recorded since. */
export type OpenedPage = Awaited<ReturnType<typeof openPage>>;

/**
 * Takes a screenshot of the whole page as it is if the test running now fails: openPage does it for
 * the test that opens the page, a later test that goes on with the same page calls it for itself.
 */
export function screenshotOnFailure(page: Page) {
  onTestFailed(async ({ task }) => {
    if (!page.isClosed()) {
      const name = `failed-${task.name.replace(/[^\w-]+/g, "-").slice(0, 120)}`;
      // The test's own failure is the verdict: a screenshot that cannot be taken does not replace it.
      await save(page, name, { fullPage: true }).catch(() => {});
    }
  });
}
