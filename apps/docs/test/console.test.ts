// The try-it console (dist/console.html) in Debian's Chromium. From disk, offline: it renders, asks for
// nothing and offers the production hosts with no credential in it. As `pnpm start` serves it, next to
// the sandbox: no request leaves 127.0.0.1, the sandbox's hosts come first with the production ones as
// choices, and an exchange then an accounts call, each sent with the page's own controls, answer 200.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { RunningSandbox } from "@engage-voice/sandbox";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BesideSandbox, serveBesideSandbox } from "./beside-sandbox.js";
import { launchChromium, openPage, screenshot } from "./chromium.js";

const require = createRequire(import.meta.url);
const dist = new URL("../dist/", import.meta.url);
/** Each host's production addresses, from its own document in @engage-voice/spec. */
async function addresses(host: "main" | "legacy"): Promise<string[]> {
  const file = require.resolve(`@engage-voice/spec/openapi.${host}.json`);
  return JSON.parse(await readFile(file, "utf8")).servers.map((server: { url: string }) => server.url);
}
const production = { main: await addresses("main"), legacy: await addresses("legacy") };

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

/** The server addresses a server menu offers, opened from `button` and closed again. */
async function serverChoices(page: Page, button: Locator): Promise<string[]> {
  await button.click();
  const options = await page.getByRole("option").allInnerTexts();
  await page.keyboard.press("Escape");
  return options.map((text) => text.trim().split(/\s/)[0] as string);
}

/** Shows the document of the host titled `title` (the console has one per host). */
async function chooseDocument(page: Page, from: string, title: string) {
  await page.getByRole("button", { name: from, exact: true }).first().click();
  await page.getByRole("option", { name: title }).first().click();
}

/** Opens the request panel of the operation titled `summary` from its "Test Request" button. */
async function testRequest(page: Page, summary: string, method: string, path: string) {
  await page.getByText(summary, { exact: true }).first().click();
  await page
    .getByRole("button", { name: new RegExp(`^Test Request\\s*\\(${method} ${path}\\)`) })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: "API Client" });
  await dialog.waitFor();
  return dialog;
}

/** Sends the request in the panel with its Send button and returns the status line and the raw body. */
async function send(dialog: Locator, method: string) {
  await dialog.getByRole("button", { name: new RegExp(`^Send ${method} request`) }).click();
  const status = dialog.getByText(/^\d{3} [A-Z][A-Za-z ]+$/).first();
  await status.waitFor();
  await dialog.getByRole("button", { name: "Raw", exact: true }).click();
  // The raw body is shown in a CodeMirror view, on one line.
  const body = dialog.locator(".cm-content").last();
  return { status: (await status.innerText()).trim(), body: await body.innerText() };
}

/** The curl sample the page shows for `path` (the operation's section must be open). */
async function curlSample(page: Page, path: string): Promise<string> {
  const samples = await page.locator("pre, .cm-content").allInnerTexts();
  return samples.find((text) => text.startsWith("curl") && text.includes(path)) ?? "no curl sample";
}

describe("try-it console (dist/console.html)", () => {
  it("from disk, offline: renders every operation, asks for nothing, offers production only", async () => {
    const { page, requests, errors, close } = await openPage(
      browser,
      new URL("console.html", dist).href,
      1280,
    );
    await page.getByText("Exchange a parent-platform token").first().waitFor({ timeout: 60_000 });
    const intro = page.getByRole("button", { name: /^Server:/ }).first();
    expect(await serverChoices(page, intro)).toEqual(production.main);
    expect(await page.locator("#sandbox-settings").textContent()).toBe("{}");
    await screenshot(page, `console-disk-1280`);
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  describe("as pnpm start serves it, next to the sandbox", () => {
    let sandbox: RunningSandbox;
    let docs: BesideSandbox["docs"];
    let served: BesideSandbox | undefined;

    beforeAll(async () => {
      served = await serveBesideSandbox(dist, "/console.html");
      ({ sandbox, docs } = served);
    });
    afterAll(async () => {
      await served?.stop();
    });

    it("runs an exchange, then an accounts call with its token, from the page's own controls", async () => {
      const { page, requests, errors, close } = await openPage(browser, `${docs.url}/console.html`, 1280);
      await page.getByText("Exchange a parent-platform token").first().waitFor({ timeout: 60_000 });
      const intro = page.getByRole("button", { name: /^Server:/ }).first();
      expect(await serverChoices(page, intro)).toEqual([sandbox.mainUrl, ...production.main]);

      // The samples are written for the server selected: the sandbox, then a production address.
      await page.getByText("List accounts", { exact: true }).first().click();
      const accountsPath = "/voice/api/v1/admin/accounts";
      expect(await curlSample(page, accountsPath)).toMatch(
        new RegExp(`^curl '?${sandbox.mainUrl}${accountsPath}`),
      );
      await intro.click();
      await page
        .getByRole("option", { name: new RegExp(production.main[0] as string) })
        .first()
        .click();
      expect(await curlSample(page, accountsPath)).toMatch(
        new RegExp(`^curl '?${production.main[0]}${accountsPath}`),
      );
      await intro.click();
      await page
        .getByRole("option", { name: new RegExp(sandbox.mainUrl) })
        .first()
        .click();
      expect(await curlSample(page, accountsPath)).toContain(sandbox.mainUrl);

      // The exchange starts from the seeded parent token: nothing to type.
      const exchange = await testRequest(
        page,
        "Exchange a parent-platform token",
        "post",
        "/api/auth/login/rc/accesstoken",
      );
      const exchanged = await send(exchange, "post");
      expect(exchanged.status).toBe("200 OK");
      const { accessToken } = JSON.parse(exchanged.body);
      expect(accessToken).toMatch(/^ey/);
      await page.keyboard.press("Escape");

      // The accounts call, with the exchange's token typed into the panel's Bearer field: the one
      // time it is typed.
      const accounts = await testRequest(page, "List accounts", "get", "/voice/api/v1/admin/accounts");
      await accounts.getByRole("button", { name: /^Authentication/ }).click();
      await accounts.getByRole("textbox", { name: /Bearer Token/ }).fill(accessToken);
      const listed = await send(accounts, "get");
      expect(listed.status).toBe("200 OK");
      expect(JSON.parse(listed.body).map((a: { accountName: string }) => a.accountName)).toContain(
        "Sandbox Sales",
      );
      await screenshot(page, `console-sandbox-accounts-1280`);
      await page.keyboard.press("Escape");

      // The deprecated host's document offers the sandbox's legacy host first, then production's.
      await chooseDocument(page, "Contact-center host", "Deprecated login host");
      await page.getByText("Log in with username and password (deprecated)").first().waitFor();
      const legacyIntro = page.getByRole("button", { name: /^Server:/ }).first();
      expect(await serverChoices(page, legacyIntro)).toEqual([sandbox.legacyUrl, ...production.legacy]);
      // Its login starts from the seeded username, password and platform: sent as it is, it answers 200.
      const login = await testRequest(
        page,
        "Log in with username and password (deprecated)",
        "post",
        "/api/auth/login/admin",
      );
      expect((await send(login, "post")).status).toBe("200 OK");
      await screenshot(page, `console-sandbox-legacy-login-1280`);
      await page.keyboard.press("Escape");
      // The token typed once on the other host's document is this document's too: nothing to paste.
      const tokens = await testRequest(
        page,
        "List permanent API tokens (deprecated host)",
        "get",
        "/voice/api/v1/admin/token",
      );
      expect((await send(tokens, "get")).status).toBe("200 OK");

      const origins = requests.map((request) => new URL(request.split(" ")[1] as string).hostname);
      expect(new Set(origins)).toEqual(new Set(["127.0.0.1"]));
      expect(requests).toEqual([
        `POST ${sandbox.mainUrl}/api/auth/login/rc/accesstoken?includeRefresh=true`,
        `GET ${sandbox.mainUrl}/voice/api/v1/admin/accounts`,
        expect.stringMatching(new RegExp(`^POST ${sandbox.legacyUrl}/api/auth/login/admin\\?username=`)),
        `GET ${sandbox.legacyUrl}/voice/api/v1/admin/token`,
      ]);
      expect(errors).toEqual([]);
      await close();
    });
  });
});
