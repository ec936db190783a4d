// Opens the built reference from disk in Debian's Chromium with the network cut, checks that every
// operation of both hosts is rendered and that no request left the page, and keeps a screenshot.
import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Operation = { operationId: string; summary: string; tags: string[]; servers?: { variables: object }[] };

const require = createRequire(import.meta.url);
const document = JSON.parse(await readFile(require.resolve("@engage-voice/spec/openapi.json"), "utf8"));
const dist = new URL("../dist/", import.meta.url);
const artifacts = new URL("../test-results/", import.meta.url).pathname;
const operations: Operation[] = Object.values(document.paths).flatMap((item) =>
  Object.values(item as Record<string, Operation>).filter((op) => op.operationId),
);

let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
});
afterAll(() => browser?.close());

/** Opens a built page from disk with the network cut, recording every request that is not the file itself. */
async function openOffline(file: string) {
  const context = await browser.newContext({ offline: true, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const external: string[] = [];
  page.on("request", (request) => {
    if (!/^(file|data|blob):/.test(request.url())) external.push(request.url());
  });
  await page.goto(new URL(file, dist).href, { waitUntil: "load" });
  return { page, external, close: () => context.close() };
}

/** Opens a tag's page from the sidebar and waits until it shows `expected`. */
async function openTag(page: Page, tag: string, expected: string[]): Promise<string> {
  await page.getByText(tag, { exact: true }).first().click();
  const text = () => page.locator("body").innerText();
  for (let i = 0; i < 50; i++) {
    const body = await text();
    if (expected.every((s) => body.includes(s))) return body;
    await page.waitForTimeout(200);
  }
  return text();
}

describe("API reference (dist/reference.html)", () => {
  it("renders all 8 operations of both hosts offline, without a single network request", async () => {
    expect(operations).toHaveLength(8);
    const { page, external, close } = await openOffline("reference.html");
    await page.getByText("Contact-center host ({base_url})").first().waitFor({ timeout: 20_000 });
    await page.getByText("Deprecated host ({legacy_base_url})").first().waitFor();
    const tags = [...new Set(operations.flatMap((op) => op.tags))];
    for (const tag of tags) {
      const tagged = operations.filter((o) => o.tags.includes(tag));
      const server = tagged.some((o) => o.servers) ? "portal.vacd.biz" : "engage.ringcentral.com";
      const text = await openTag(page, tag, [...tagged.map((o) => o.summary), server]);
      for (const op of tagged) expect(text).toContain(op.summary);
      expect(text).toContain(server);
      if (tag === "API tokens") {
        await mkdir(artifacts, { recursive: true });
        await page.screenshot({ path: `${artifacts}reference.png` });
      }
    }
    expect(external).toEqual([]);
    await close();
  });

  it("serves a getting-started page on the auth flows that links to the reference", async () => {
    const { page, external, close } = await openOffline("index.html");
    expect(await page.title()).toContain("Getting started");
    const body = await page.locator("body").innerText();
    for (const path of [
      "/api/auth/login/rc/accesstoken",
      "/api/auth/token/refresh",
      "/api/auth/login/admin",
    ]) {
      expect(body).toContain(path);
    }
    await page.locator("a[href='reference.html']").first().click();
    await page.getByText("Contact-center host ({base_url})").first().waitFor({ timeout: 20_000 });
    expect(external).toEqual([]);
    await close();
  });
});
