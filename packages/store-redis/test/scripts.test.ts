// The store's Lua scripts go to Redis by their SHA-1 (EVALSHA); the source travels once per server,
// with EVAL, when the server answers NOSCRIPT. Counted with INFO commandstats on a server of this
// file's own, which no other test file talks to.

import { fromStored, type TokenSet } from "@engage-voice/auth";
import { type RunningRedis, startRedis } from "@engage-voice/test-kit/servers";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisLike, redisStore } from "../src/index.js";
import { EXTEND, RELEASE } from "../src/lock.js";
import { SET_IF_NEWER } from "../src/store.js";

let server: RunningRedis;
const open = (url: string) => createClient({ url }).connect();
let redis: Awaited<ReturnType<typeof open>>;
let storeClient: Awaited<ReturnType<typeof open>>;
beforeAll(async () => {
  server = await startRedis();
  redis = await open(server.url);
  storeClient = await open(server.url);
});
afterAll(async () => {
  await Promise.all([redis?.close(), storeClient?.close()]);
  await server?.stop();
});

/** Calls of EVAL and EVALSHA since the server started (or CONFIG RESETSTAT), failed ones too. */
async function scriptCalls() {
  const info = await redis.info("commandstats");
  const of = (command: string) => {
    const line = new RegExp(`^cmdstat_${command}:calls=(\\d+).*failed_calls=(\\d+)`, "m").exec(info);
    return { calls: Number(line?.[1] ?? 0), failed: Number(line?.[2] ?? 0) };
  };
  return { eval: of("eval"), evalsha: of("evalsha") };
}

const tokens = (sequence: number) =>
  fromStored({
    accessToken: `a${sequence}`,
    refreshToken: `r${sequence}`,
    expiresAt: 2,
    obtainedAt: 1,
    sequence,
  }) as TokenSet;

describe("the store's scripts", () => {
  it("have the SHA-1 that Redis computes for them", async () => {
    for (const script of [EXTEND, RELEASE, SET_IF_NEWER]) {
      expect(await script.sha()).toBe(await redis.scriptLoad(script.source));
    }
    await redis.scriptFlush();
  });

  it("are sent by hash: the source once per script, again only after the server lost it", async () => {
    await redis.configResetStat();
    const store = redisStore({ client: storeClient, tenant: "scripts" });
    for (let sequence = 1; sequence <= 3; sequence++) {
      await store.set(tokens(sequence)); // SET_IF_NEWER
    }
    for (let turn = 0; turn < 2; turn++) {
      await store.lock?.(async (hold) => hold?.held?.()); // EXTEND, then RELEASE
    }
    // Three scripts, seven runs: each run one EVALSHA; each script's first answered NOSCRIPT, then EVAL.
    expect(await scriptCalls()).toEqual({ eval: { calls: 3, failed: 0 }, evalsha: { calls: 7, failed: 3 } });
    await redis.scriptFlush(); // as a restart or a failover to a replica that never ran them
    await store.set(tokens(4));
    expect(await scriptCalls()).toEqual({ eval: { calls: 4, failed: 0 }, evalsha: { calls: 8, failed: 4 } });
    expect((await store.get())?.accessToken).toBe("a4");
  });
});

describe("a client's NOSCRIPT and other errors", () => {
  it("takes only NOSCRIPT as a cue for EVAL; any other error fails the command with store_failed", async () => {
    const sent: string[] = [];
    let answer: Error | undefined = new Error("NOSCRIPT No matching script. Please use EVAL.");
    const client: RedisLike = {
      get: async () => null,
      set: async () => "OK",
      del: async () => 1,
      eval: async () => {
        sent.push("eval");
        return 1;
      },
      evalSha: async () => {
        sent.push("evalSha");
        if (answer) {
          throw answer;
        }
        return 1;
      },
    };
    const store = redisStore({ client, tenant: "stub" });
    await store.set(tokens(1));
    expect(sent).toEqual(["evalSha", "eval"]);
    answer = new Error("ERR Error running script: NOSCRIPT in a message that does not start with it");
    sent.length = 0;
    await expect(store.set(tokens(2))).rejects.toMatchObject({ code: "store_failed" });
    expect(sent).toEqual(["evalSha"]);
  });
});
