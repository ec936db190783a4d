// Per-call cost of this SDK's paths beside peers with the same guards, on a stubbed fetch (no
// network: each client's own code) and over HTTP to a node:http server on 127.0.0.1 in another
// process (what a user waits for, with the shortest round trip there is).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type LocalServer, startLocalServer } from "../src/local-server.ts";
import { NAMES, rows } from "../src/peers.ts";
import { inRounds } from "../src/rounds.ts";
import { ACCOUNTS_BODY, BASE_URL, stubServer } from "../src/stub.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const expected = JSON.parse(ACCOUNTS_BODY);

async function checkedRows(baseUrl: string, fetch: typeof globalThis.fetch) {
  const list = await rows(baseUrl, fetch);
  // No row may time a failure: each reads the account list once before it is timed.
  for (const row of list) {
    expect(await row.call(), row.name).toEqual(expected);
  }
  return list.map(({ name, call }) => [name, call] as [string, () => unknown]);
}

describe("per call", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer();
  });
  afterAll(() => server?.stop());

  test("stubbed fetch", async (context) => {
    const list = await checkedRows(BASE_URL, stubServer().fetch);
    await inRounds(context, NAMES.floor, list, ROUNDS, { time: 300, warmupTime: 100 });
  });

  test("loopback HTTP", async (context) => {
    const list = await checkedRows(server.url, globalThis.fetch);
    await inRounds(context, NAMES.floor, list, ROUNDS, { time: 400, warmupTime: 100 });
  });
});
