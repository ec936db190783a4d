// What the READMEs' TypeScript blocks take as given: the user's own objects and a few runtimes'
// globals, declared loosely. The SDK's own names are never declared here: a block that misuses them
// fails to compile.
import type { createTokenManager as create, TokenStore as Store, TokenManager } from "@engage-voice/auth";
import type { RunningSandbox, startSandbox as start } from "@engage-voice/sandbox";
import type { RedisLike, RedisSubscriber } from "@engage-voice/store-redis";

type Loose = (...args: (string | number | string[] | object)[]) => Promise<unknown>;

declare global {
  type TokenStore = Store;
  const ringCentralSdk: { getAccessToken(): Promise<string> };
  const getRingCentralAccessToken: (tenant: string) => Promise<string>;
  const parentTokens: { current(tenant: string): Promise<string> };
  const metrics: { count(name: string, labels: Record<string, string>): void };
  const customerId: string;
  const rcAccessToken: string;
  const auth: TokenManager;
  const sandbox: RunningSandbox;
  const startSandbox: typeof start;
  const createTokenManager: typeof create;
  // node-redis's `createClient()`, as the auth README's custom store uses it.
  const redis: { get(key: string): Promise<string | null>; set: Loose; eval: Loose } & RedisLike;
  const subscriber: RedisSubscriber;
  const redlock: {
    using<T>(keys: string[], ms: number, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  };
  const owner: string;
  const EXTEND_IF_OWNER: string;
  const DELETE_IF_OWNER: string;
  const ioredis: {
    get(key: string): Promise<string | null>;
    set(...args: (string | number)[]): Promise<string | null>;
    del(key: string): Promise<number>;
    eval(...args: (string | number)[]): Promise<unknown>;
    evalsha(...args: (string | number)[]): Promise<unknown>;
  };
  const Bun: {
    serve(options: {
      hostname: string;
      port: number;
      fetch: (request: Request) => Response | Promise<Response>;
    }): unknown;
  };
}
