// Opens the built pages in Debian's Chromium and holds them to what a reader needs: the reference from
// disk with the network cut (every operation with its curl and TypeScript samples and, with a request
// body, its Payload panel; both hosts and the downloads on the landing, no schema row "property
// name*", nothing wider than its box at 1280 and 1440 px, no request, no console error), and the
// getting-started page both from disk (production values) and as `pnpm start` serves it, where its
// commands run on the sandbox as shown. Screenshots (see chromium.ts) go to test-results/. The
// getting-started page comes first: the reference its link opens at a width is the page the reference's
// own tests at that width go on with, so that the reference is loaded once per width (openReference).
import { access, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { defaultBaseUrls } from "@engage-voice/client/internal";
import type { RunningSandbox } from "@engage-voice/sandbox";
import { serveStatic } from "@engage-voice/test-kit/servers";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain ES modules without declarations
import { errorCodesOf, presentable } from "../scripts/present.mjs";
// @ts-expect-error: plain ES modules without declarations
import { fillReference } from "../scripts/sandbox-page.mjs";
import { type BesideSandbox, serveBesideSandbox } from "./beside-sandbox.js";
import { launchChromium, type OpenedPage, openPage, screenshot, screenshotOnFailure } from "./chromium.js";
import { runCurl, runTypeScript, typecheck, writeSamples } from "./run-samples.js";

type Sample = { lang: string; label: string; source: string };
type Operation = {
  operationId: string;
  summary: string;
  tags: string[];
  servers?: { url: string; variables: Record<string, { default: string }> }[];
  requestBody?: { content: Record<string, { example?: Record<string, string> }> };
  "x-codeSamples": Sample[];
};

const require = createRequire(import.meta.url);
const document = JSON.parse(await readFile(require.resolve("@engage-voice/spec/openapi.json"), "utf8"));
const changelog = await readFile(
  new URL("../CHANGELOG.md", `file://${require.resolve("@engage-voice/spec/openapi.json")}`),
  "utf8",
);
const dist = new URL("../dist/", import.meta.url);
const operations: Operation[] = Object.values(document.paths).flatMap((item) =>
  Object.values(item as Record<string, Operation>).filter((op) => op.operationId),
);
const tags = [...new Set(operations.flatMap((op) => op.tags))];
const hostUrls = [document.servers[0], operations.find((op) => op.servers)?.servers?.[0]].map(
  (server) => Object.values(server.variables as Record<string, { default: string }>)[0]?.default as string,
);
const WIDTHS = [1280, 1440];
// A phone's width: the getting-started page is read there too.
const GUIDE_WIDTHS = [390, ...WIDTHS];
const flat = (text: string) => text.replace(/\s+/g, " ").trim();

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

/** A page of dist/ or of the docs server, in the browser these tests share. */
const open = (url: string, width: number) => openPage(browser, url, width);

/** The width the search is tried at. */
const SEARCH_WIDTH = 1280;

/**
 * The reference from disk as a passed test left it, by width, for the next test at that width: each
 * getting-started test leaves the reference its link opened, the walk at the search's width leaves its
 * page to the search. Loading the reference is seconds of CPU, its most costly step, and this loads it
 * once per width instead of twice. A test run alone, or after one that failed, loads its own.
 */
const leftOpen = new Map<number, OpenedPage>();

async function openReference(width: number): Promise<OpenedPage> {
  const left = leftOpen.get(width);
  if (!left) {
    return open(new URL("reference.html", dist).href, width);
  }
  leftOpen.delete(width);
  screenshotOnFailure(left.page);
  return left;
}

/** Leaves a page for the next test at its width (see openReference), closing one left before. */
async function leave(opened: OpenedPage, width: number) {
  await leftOpen.get(width)?.close();
  leftOpen.set(width, opened);
}

/**
 * Elements whose content is wider than their box, measured in the page: content cut off, drawn over
 * its neighbour or scrolled sideways. Inline and hidden elements have no box of their own to overflow.
 */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = globalThis.document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      found.push(`the page scrolls sideways (${root.scrollWidth}px)`);
    }
    for (const element of globalThis.document.querySelectorAll("body *")) {
      const style = getComputedStyle(element);
      if (style.display === "inline" || style.display === "contents" || style.visibility === "hidden") {
        continue;
      }
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) {
        continue;
      }
      // A code sample may scroll sideways within its box (a URL longer than the line): by design.
      const code = element.closest('pre, [data-component-name="CodeBlock/CodeBlockContainer"]');
      const scrolls = code && ["auto", "scroll"].includes(getComputedStyle(code).overflowX);
      if (scrolls) {
        continue;
      }
      if (element.scrollWidth > element.clientWidth + 1) {
        const name = element.getAttribute("data-component-name") ?? element.className;
        const text = (element.textContent ?? "").trim().slice(0, 60);
        found.push(
          `<${element.tagName.toLowerCase()} ${name}> ${element.scrollWidth}>${element.clientWidth}: ${text}`,
        );
      }
    }
    return found;
  });
}

/**
 * Words of code split over two lines: each run of non-space characters of a text node must sit on one
 * line (a line box of its own per fragment otherwise).
 */
function splitWords(page: Page, code: string): Promise<string[]> {
  return page.evaluate((code) => {
    const found: string[] = [];
    for (const block of globalThis.document.querySelectorAll(code)) {
      const box = block.getBoundingClientRect();
      if (box.width === 0) {
        continue;
      }
      const walker = globalThis.document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of (node.textContent ?? "").matchAll(/\S+/g)) {
          const range = globalThis.document.createRange();
          range.setStart(node, word.index ?? 0);
          range.setEnd(node, (word.index ?? 0) + word[0].length);
          const tops = new Set(
            [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
          );
          if (tops.size > 1) {
            found.push(word[0]);
          }
        }
      }
    }
    return found;
  }, code);
}

/** Samples whose text lies under their own copy button (the button is drawn over the code). */
const REDOC_CODE = {
  block: '[data-component-name="CodeBlock/CodeBlock"]',
  button: '[data-component-name="Buttons/CopyButton"]',
  code: '[data-component-name="CodeBlock/CodeBlockContainer"]',
};
const GUIDE_CODE = { block: ".sample", button: "button.copy", code: "pre" };

function coveredByCopyButton(page: Page, selectors = REDOC_CODE): Promise<string[]> {
  return page.evaluate((selectors) => {
    const found: string[] = [];
    for (const block of globalThis.document.querySelectorAll(selectors.block)) {
      const button = block.querySelector(selectors.button);
      const code = block.querySelector(selectors.code);
      if (!button || !code) {
        continue;
      }
      const b = button.getBoundingClientRect();
      if (b.width === 0) {
        continue;
      }
      const walker = globalThis.document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = globalThis.document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
          const hit =
            r.width > 0 && r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top;
          if (hit && (node.textContent ?? "").trim()) {
            found.push((node.textContent ?? "").trim().slice(0, 40));
          }
        }
      }
    }
    return found;
  }, selectors);
}

/**
 * Waits until the page's text holds every one of `expected`, and returns that text. The bound is
 * wide: Redoc renders slowly on two busy cores, and only the text decides the verdict.
 */
async function waitForText(page: Page, expected: string[]): Promise<string> {
  let body = "";
  for (let i = 0; i < 600; i++) {
    body = flat(await page.locator("body").innerText());
    if (expected.every((s) => body.includes(flat(s)))) {
      return body;
    }
    await page.waitForTimeout(100);
  }
  return body;
}

/**
 * What the Payload panel of an operation with a request body shows: Redoc's rendering of the body's
 * example, which for a form is the encoded form.
 */
function payloadOf(op: Operation): string | undefined {
  const [type, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
  if (!media?.example) {
    return undefined;
  }
  return type === "application/x-www-form-urlencoded"
    ? new URLSearchParams(media.example).toString()
    : JSON.stringify(media.example, null, 2);
}

/**
 * Switches the request sample panel in view from `current` to `label` (curl, TypeScript or
 * Payload). Redoc keeps operations it rendered earlier in the page, each with its own language
 * button, so the one to press is the one on screen.
 */
async function chooseLanguage(page: Page, current: string, label: string) {
  const buttons = page.getByRole("button", { name: current, exact: true });
  const height = page.viewportSize()?.height ?? 900;
  for (let i = 0; i < (await buttons.count()); i++) {
    const box = await buttons.nth(i).boundingBox();
    if (box && box.y >= 0 && box.y + box.height <= height) {
      await buttons.nth(i).click();
      await page.getByText(label, { exact: true }).last().click();
      return;
    }
  }
  throw new Error(`no ${current} button on screen to switch the samples to ${label}`);
}

describe("getting started (dist/index.html)", () => {
  for (const width of GUIDE_WIDTHS) {
    it(`from disk: production values, copy buttons, the auth README, nothing overflowing at ${width} px`, async () => {
      const opened = await open(new URL("index.html", dist).href, width);
      const { page, requests, errors } = opened;
      expect(await page.title()).toContain("Getting started");
      const body = await page.locator("body").innerText();
      for (const path of [
        "/api/auth/login/rc/accesstoken",
        "/api/auth/token/refresh",
        "/api/auth/login/admin",
      ]) {
        expect(body).toContain(path);
      }
      const variables = await page.locator('pre[data-sample="variables"]').innerText();
      expect(variables).toContain(`export BASE_URL='${defaultBaseUrls.main}'`);
      expect(variables).toContain(`export LEGACY_BASE_URL='${defaultBaseUrls.legacy}'`);
      expect(await page.locator("#sandbox").isVisible()).toBe(false);
      const samples = await page.locator("pre").allInnerTexts();
      expect(samples.join("\n")).not.toMatch(/\$USER\b|\$PASSWORD\b/);
      expect(await page.locator(".sample > button.copy").count()).toBe(samples.length);
      expect(await page.locator('a[href*="@engage-voice/auth"]').count()).toBeGreaterThan(0);
      // The SDK's first sample is the auth README's first shape: the host named once, auth.client().
      const sdk = await page.locator('pre[data-sample="typescript"]').first().innerText();
      expect(sdk).toContain("const client = auth.client();");
      expect(sdk).not.toContain("createClient");
      expect(sdk.match(/engage\.ringcentral\.com/g)).toHaveLength(1);
      expect(await page.locator('link[rel="icon"][href^="data:"]').count()).toBe(1);
      expect(await overflowing(page)).toEqual([]);
      expect(await coveredByCopyButton(page, GUIDE_CODE)).toEqual([]);
      expect(await splitWords(page, GUIDE_CODE.code)).toEqual([]);
      await screenshot(page, `getting-started-disk-${width}`, { fullPage: true });

      await page.locator("a[href='reference.html']").first().click();
      // Attached, not visible: at a phone's width Redoc folds its sidebar behind a menu button.
      await page
        .getByText("Contact-center host ({base_url})")
        .first()
        .waitFor({ state: "attached", timeout: 60_000 });
      expect(requests).toEqual([]);
      expect(errors).toEqual([]);
      // The reference the link opened: the reference's own tests at this width go on from it.
      await leave(opened, width);
    });
  }

  describe("as pnpm start serves it, next to the sandbox", () => {
    let sandbox: RunningSandbox;
    let docs: BesideSandbox["docs"];
    let served: BesideSandbox | undefined;

    beforeAll(async () => {
      // The sandbox as pnpm start runs it, its exchange limit included: the page's path fits in it.
      served = await serveBesideSandbox(dist, "/index.html", { mockUrl: "http://127.0.0.1:4010" });
      ({ sandbox, docs } = served);
    });
    afterAll(async () => {
      await served?.stop();
    });

    it("serves the reference with samples that call the sandbox", async () => {
      const addresses = async (host: string) =>
        JSON.parse(
          await readFile(require.resolve(`@engage-voice/spec/openapi.${host}.json`), "utf8"),
        ).servers.map((server: { url: string }) => server.url);
      const hosts = { main: await addresses("main"), legacy: await addresses("legacy") };
      const reference = await serveStatic(new URL(".", dist).pathname, {
        transform: (pathname: string, body: Buffer) =>
          pathname === "/reference.html" ? fillReference(body.toString("utf8"), sandbox, hosts) : body,
      });
      try {
        const { page, requests, errors, close } = await open(`${reference.url}/reference.html`, 1280);
        const [op] = operations;
        await page.getByText("Contact-center host ({base_url})").first().waitFor({ timeout: 60_000 });
        await page
          .getByText(op?.tags[0] ?? "?", { exact: true })
          .first()
          .click();
        await page
          .getByText(op?.summary ?? "?", { exact: true })
          .first()
          .click();
        const text = await waitForText(page, [`${sandbox.mainUrl}${Object.keys(document.paths)[0]}`]);
        expect(text).toContain(`${sandbox.mainUrl}${Object.keys(document.paths)[0]}`);
        expect(requests).toEqual([]);
        expect(errors).toEqual([]);
        await close();
      } finally {
        await reference.stop();
      }
    });

    it("answers /favicon.ico", async () => {
      const response = await fetch(`${docs.url}/favicon.ico`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/svg+xml");
    });

    it("fills in the sandbox, and its curl and TypeScript samples run there as shown", async () => {
      const { page, requests, errors, close } = await open(`${docs.url}/`, 1280);
      await page.locator("#sandbox").waitFor();
      const variables = await page.locator('pre[data-sample="variables"]').innerText();
      expect(variables).toContain(`export BASE_URL='${sandbox.mainUrl}'`);
      expect(variables).toContain(`export LEGACY_BASE_URL='${sandbox.legacyUrl}'`);
      expect(await page.locator("#mock").innerText()).toContain("http://127.0.0.1:4010");
      expect(await overflowing(page)).toEqual([]);
      await screenshot(page, `getting-started-sandbox-1280`, { fullPage: true });
      const curl = await page.locator('pre[data-sample="curl"]').allInnerTexts();
      const ts = await page
        .locator('pre[data-sample="typescript"]')
        .evaluateAll((pres) =>
          pres.map((pre) => [pre.getAttribute("data-name") ?? "", pre.textContent ?? ""] as const),
        );
      expect(requests).toEqual([]);
      expect(errors).toEqual([]);
      await close();

      // Exchange, accounts, refresh, login, create, list, delete: each answers 200.
      const shell = await runCurl([variables, ...curl].join("\n"), {});
      expect(shell.statuses, shell.stderr).toEqual([200, 200, 200, 200, 200, 200, 200]);
      expect(shell.stdout).toContain("Sandbox Sales");

      const environment = Object.fromEntries(
        [...variables.matchAll(/^export (\w+)='([^']*)'$/gm)].map((m) => [m[1] as string, m[2] as string]),
      );
      const files = await writeSamples(
        Object.fromEntries(ts.map(([name, source]) => [`guide-${name}`, source])),
      );
      await typecheck(Object.values(files));
      const accounts = await runTypeScript(files["guide-accounts"] as string, environment);
      expect(accounts.statuses, accounts.stdout).toEqual([200]);
      expect(accounts.stdout).toContain("Sandbox Sales");
      const tokens = await runTypeScript(files["guide-api-tokens"] as string, environment);
      expect(tokens.stdout).toMatch(/tokens: \[\s*'sbx01:/);
    });
  });
});

describe("API reference (dist/reference.html), offline", () => {
  for (const width of WIDTHS) {
    it(`shows every operation with its samples, both hosts on the landing, nothing overflowing at ${width} px`, async () => {
      const opened = await openReference(width);
      const { page, requests, errors, close } = opened;
      await page.getByText("Contact-center host ({base_url})").first().waitFor({ timeout: 60_000 });

      // The landing: both hosts in the servers panel, the bundled document for download beside the page.
      const landing = await waitForText(page, ["Servers", ...hostUrls]);
      const servers = await page
        .locator('[data-component-name="Panel/Panel"]', { hasText: "Servers" })
        .first()
        .innerText();
      for (const url of hostUrls) {
        expect(servers).toContain(url);
      }
      expect(landing).toContain("Download OpenAPI description");
      // The Changelog section: every released version of the spec's CHANGELOG.md, or the line that
      // says none is.
      const released = [...changelog.matchAll(/^## (\S+)/gm)].map((m) => m[1] as string);
      const expected = [
        "Changelog",
        ...(released.length ? released : ["No version of the document has been released yet."]),
      ];
      const changes = await waitForText(page, expected);
      for (const text of expected) {
        expect(changes, "the Changelog section").toContain(text);
      }
      for (const file of ["openapi.json", "openapi.yaml"]) {
        expect(await page.locator(`a[href$="${file}"]`).count(), file).toBeGreaterThan(0);
        await access(new URL(file, dist));
      }
      expect(await page.locator('link[rel="icon"][href^="data:"]').count()).toBe(1);
      expect(await overflowing(page), "landing").toEqual([]);
      // The title takes at most three lines, and no address in the intro table is split inside a word.
      const title = page.locator('[data-component-name="Typography/H1"]').first();
      const lines = await title.evaluate(
        (h) => h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight),
      );
      expect(Math.round(lines)).toBeLessThanOrEqual(3);
      const split = await page
        .locator("td code")
        .evaluateAll((codes) =>
          codes.filter((code) => code.getClientRects().length > 1).map((code) => code.textContent),
        );
      expect(split).toEqual([]);
      await screenshot(page, `reference-landing-${width}`);

      // Redoc renders a tag's operations as they come into view: visit each one from the sidebar.
      for (const tag of tags) {
        await page.getByText(tag, { exact: true }).first().click();
        for (const op of operations.filter((o) => o.tags.includes(tag))) {
          const sample = (label: string) => op["x-codeSamples"].find((s) => s.label === label)?.source ?? "?";
          await page.getByText(op.summary, { exact: true }).first().click();
          const text = await waitForText(page, [op.summary, sample("curl")]);
          expect(text, `${op.operationId}: curl sample`).toContain(flat(sample("curl")));
          expect(text).not.toContain("property name");
          for (const { errorCode } of errorCodesOf(document, op)) {
            expect(text, `${op.operationId}: error codes seen`).toContain(errorCode);
          }
          expect(await overflowing(page), op.operationId).toEqual([]);
          expect(await coveredByCopyButton(page), op.operationId).toEqual([]);
          expect(await splitWords(page, REDOC_CODE.code), op.operationId).toEqual([]);
          await screenshot(page, `reference-${op.operationId}-${width}`);

          await chooseLanguage(page, "curl", "TypeScript");
          const withTs = await waitForText(page, [sample("TypeScript")]);
          expect(withTs, `${op.operationId}: TypeScript sample`).toContain(flat(sample("TypeScript")));
          expect(await overflowing(page), `${op.operationId} (TypeScript)`).toEqual([]);
          expect(await coveredByCopyButton(page), `${op.operationId} (TypeScript)`).toEqual([]);
          expect(await splitWords(page, REDOC_CODE.code), `${op.operationId} (TypeScript)`).toEqual([]);

          // The request body as Redoc renders it: where a long form value was once cut off.
          const payload = payloadOf(op);
          expect(payload === undefined, `${op.operationId}: Payload panel`).toBe(
            op.requestBody === undefined,
          );
          if (payload !== undefined) {
            await chooseLanguage(page, "TypeScript", "Payload");
            const withPayload = await waitForText(page, [payload]);
            expect(withPayload, `${op.operationId}: Payload`).toContain(flat(payload));
            expect(await overflowing(page), `${op.operationId} (Payload)`).toEqual([]);
            expect(await coveredByCopyButton(page), `${op.operationId} (Payload)`).toEqual([]);
            await screenshot(page, `reference-${op.operationId}-payload-${width}`);
            await chooseLanguage(page, "Payload", "curl");
          } else {
            await chooseLanguage(page, "TypeScript", "curl");
          }
        }
      }
      expect(requests).toEqual([]);
      expect(errors).toEqual([]);
      if (width === SEARCH_WIDTH) {
        await leave(opened, width);
      } else {
        await close();
      }
    });
  }
});

/** Every word of every text in the document, lower case: what a search excerpt may show. */
function wordsOf(node: unknown, words = new Set<string>()): Set<string> {
  if (typeof node === "string") {
    for (const word of node.toLowerCase().split(/[^a-z]+/)) {
      words.add(word);
    }
  } else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      words.add(key.toLowerCase());
      wordsOf(value, words);
    }
  }
  return words;
}

describe("API reference at a phone's width (390 px)", () => {
  it("lays out the landing and an operation with nothing overflowing", async () => {
    const { page, requests, errors, close } = await openReference(390);
    await page
      .getByText("Contact-center host ({base_url})")
      .first()
      .waitFor({ state: "attached", timeout: 60_000 });
    await waitForText(page, ["Servers", ...hostUrls]);
    expect(await overflowing(page), "landing").toEqual([]);
    await screenshot(page, `reference-landing-390`);
    // An operation, reached by its address as a shared link would.
    const [op] = operations;
    await page.goto(`${new URL("reference.html", dist).href}#operation/${op?.operationId}`);
    await waitForText(page, [op?.summary ?? "?"]);
    expect(await overflowing(page), op?.operationId).toEqual([]);
    expect(await splitWords(page, REDOC_CODE.code), op?.operationId).toEqual([]);
    await screenshot(page, `reference-${op?.operationId}-390`);
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });
});

describe("API reference search", () => {
  it("shows excerpts whose words are the document's, none glued to the next line's", async () => {
    // The page renders the presented copy, whose additions (the error-code tables) are words too.
    const known = wordsOf(presentable(document));
    const { page, errors, close } = await openReference(SEARCH_WIDTH);
    await page.getByText("Contact-center host ({base_url})").first().waitFor({ timeout: 60_000 });
    const glued: string[] = [];
    for (const query of ["authenticate", "token", "refresh", "deprecated"]) {
      await page.getByText("Search Ctrl+K").first().click();
      await page.keyboard.type(query);
      const items = page.locator('[data-component-name="Search/SearchItem"]');
      await items.first().waitFor();
      const text = (await items.allInnerTexts()).join("\n").toLowerCase();
      glued.push(...text.split(/[^a-z]+/).filter((word) => word.length > 2 && !known.has(word)));
      await page.keyboard.press("Escape");
    }
    // Redoc's own labels in a result ("path parameters → apiToken") are not the document's words.
    const REDOC = new Set(["parameters"]);
    expect([...new Set(glued)].filter((word) => !REDOC.has(word))).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });
});
