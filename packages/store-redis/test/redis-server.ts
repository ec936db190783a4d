// vitest globalSetup: one real redis-server (Debian's) on a free loopback port for the whole run,
// stopped after. Tests get its URL with inject("redisUrl").
import { type RunningRedis, startRedis } from "@engage-voice/test-kit/servers";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

let redis: RunningRedis | undefined;

export async function setup(project: TestProject): Promise<void> {
  redis = await startRedis();
  project.provide("redisUrl", redis.url);
}

export async function teardown(): Promise<void> {
  await redis?.stop();
  redis = undefined;
}
