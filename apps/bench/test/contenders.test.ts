import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authContender } from "../src/auth-rows.ts";
import { contenders, headerMiddleware, NAMES, type Target, verify } from "../src/contenders.ts";
import { type LocalServer, startLocalServer } from "../src/local-server.ts";
import { ACCOUNTS_BODY, BASE_URL, stubServer } from "../src/stub.ts";

const accounts = JSON.parse(ACCOUNTS_BODY);

async function all(target: Target) {
  return contenders(target, [headerMiddleware(target), await authContender(target)]);
}

describe("the contenders on the stubbed fetch", () => {
  it("all read the account list, and the auth row exchanged its token once before", async () => {
    const stub = stubServer();
    const list = await all({ baseUrl: BASE_URL, fetch: stub.fetch, transport: "stub" });
    expect(list.map((c) => c.name)).toEqual([
      NAMES.raw,
      NAMES.openapiFetch,
      NAMES.client,
      NAMES.clientHeader,
      NAMES.clientAuth,
      NAMES.axios,
      NAMES.ringcentral,
    ]);
    expect(list.filter((c) => !c.call)).toEqual([]);
    await verify(list, accounts);
    expect(stub.counts).toEqual({ token: 1, other: list.length });
  });

  it("fails verification of a client that reads something else", async () => {
    await expect(verify([{ name: "wrong", call: async () => ({}) }], accounts)).rejects.toThrow(
      "wrong did not read the account list",
    );
  });
});

describe("the contenders over HTTP on 127.0.0.1", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("all read the account list from the local server", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const list = await all({ baseUrl: server.url, fetch: globalThis.fetch, transport: "http" });
    expect(list.filter((c) => !c.call)).toEqual([]);
    await verify(list, accounts);
  });

  it("answers 404 off the two operations", async () => {
    const response = await fetch(`${server.url}/nothing`);
    expect(response.status).toBe(404);
    await response.text();
  });
});
