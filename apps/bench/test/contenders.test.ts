// The rows of the per-call benchmark read the right answer, on the stubbed fetch and over loopback
// HTTP, so that `pnpm bench` never times a failure; checked in `pnpm test`, where a change of a
// package or a peer's API shows first.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startLocalServer } from "../src/local-server.ts";
import { NAMES, OURS, rows } from "../src/peers.ts";
import { ACCOUNTS_BODY, BASE_URL, stubServer } from "../src/stub.ts";

const accounts = JSON.parse(ACCOUNTS_BODY);

describe("the per-call rows", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer();
  });
  afterAll(() => server?.stop());

  it("all read the account list from the stubbed fetch, the authorised ones after one exchange each", async () => {
    const stub = stubServer();
    const list = await rows(BASE_URL, stub.fetch);
    expect(list.map((row) => row.name)).toEqual(Object.values(NAMES));
    for (const row of list) {
      expect(await row.call(), row.name).toEqual(accounts);
    }
    // One exchange for each authorised row's manager: every row of ours but the plain client.
    expect(stub.counts).toEqual({ token: OURS.length - 1, other: list.length });
  });

  it("all read the account list from the loopback server", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const row of await rows(server.url, globalThis.fetch)) {
      expect(await row.call(), row.name).toEqual(accounts);
    }
  });
});
