// Debian's Chromium as every page test drives it: headless, no sandbox (tests run as root), no GPU,
// and none of the browser's own background traffic, so that any request a test sees is the page's.
import { type Browser, chromium } from "playwright-core";

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
  await page.goto(url, { waitUntil: "load" });
  return { page, requests, errors, close: () => context.close() };
}
