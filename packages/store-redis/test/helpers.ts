import { randomUUID } from "node:crypto";
import { createClient } from "redis";
import { afterAll, inject } from "vitest";
import { redisNames } from "../src/index.js";

const makeClient = () => createClient({ url: inject("redisUrl") });
export type Redis = ReturnType<typeof makeClient>;

const opened: Redis[] = [];
afterAll(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});

/** A connected client of the test server, closed after the file's tests: one per "process". */
export async function connect(): Promise<Redis> {
  const client = makeClient();
  opened.push(client);
  await client.connect();
  return client;
}

/** A tenant no other test (or test file running in parallel) uses, and its keys under the default prefix. */
export function freshTenant() {
  const tenant = `t-${randomUUID()}`;
  return { tenant, ...redisNames(tenant) };
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
