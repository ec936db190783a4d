// A vitest globalSetup: one real redis-server (Debian's) on a free loopback port for the whole run,
// stopped after. Tests read its URL with inject("redisUrl"), typed by the kit's main entry.
import type { TestProject } from "vitest/node";
import { type RunningRedis, startRedis } from "./redis.js";

let redis: RunningRedis | undefined;

export async function setup(project: TestProject): Promise<void> {
  redis = await startRedis();
  project.provide("redisUrl", redis.url);
}

export async function teardown(): Promise<void> {
  await redis?.stop();
  redis = undefined;
}
