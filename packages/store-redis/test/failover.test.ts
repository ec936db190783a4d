// A master of a real Redis Cluster killed while tenants renew, through node-redis's createCluster with
// the options the README gives (redisClusterOptions): no refresh token is presented twice, every tenant
// renews again within 10 s of its replica's promotion, and closing the clients does not hang.

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createTokenManager } from "@engage-voice/auth";
import { fakeHosts } from "@engage-voice/fake-hosts";
import { REDIS_CLI, type RunningRedisCluster, startRedisCluster } from "@engage-voice/test-kit/servers";
import { createCluster } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisClusterOptions, redisStore } from "../src/index.js";
import { freshTenant } from "./helpers.js";

const run = promisify(execFile);
/** What a tenant's renewals may take once its slot has a master again: the bound. */
const RENEWED_WITHIN_MS = 10_000;

let cluster: RunningRedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster({ replicas: 1 });
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

const open = () => {
  const client = createCluster({ rootNodes: cluster.urls.map((url) => ({ url })), ...redisClusterOptions });
  // node-redis reports a lost node as an `error` event: without a listener it would end the process.
  client.on("error", () => {});
  return client.connect();
};

/** Resolves with whether `promise` settled within `ms`. */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

describe("a Redis Cluster master killed while tenants renew", () => {
  it("is followed within seconds: no token presented twice, every tenant renewed again, no hang on close", async () => {
    const processes = [await open(), await open()];
    const tenants = Array.from({ length: 24 }, () => {
      const { tenant } = freshTenant();
      const hosts = fakeHosts(createTokenManager);
      const managers = processes.map(
        (client) =>
          hosts.managerOn(redisStore({ client, tenant, commandTimeoutMs: 1_000, lockTimeoutMs: 3_000 }), {
            sleep: undefined,
            random: undefined,
            tenant: undefined,
            timeoutMs: 2_000,
          }).auth,
      );
      return { tenant, hosts, managers, renewedAt: [] as number[] };
    });
    // Each tick expires every tenant's token (on its hosts' clock) and asks both processes for one.
    let ticking = true;
    let paused = false;
    const tick = () =>
      Promise.all(
        tenants.map(async (t) => {
          t.hosts.clock.advance(301_000);
          const got = await Promise.allSettled(t.managers.map((m) => m.getAccessToken()));
          if (got.every((g) => g.status === "fulfilled")) {
            t.renewedAt.push(Date.now());
          }
        }),
      );
    const loop = (async () => {
      while (ticking) {
        if (!paused) {
          await tick();
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(tenants.every((t) => t.renewedAt.length > 0)).toBe(true);

    // The master of the first tenant's slot: its writes are on its replica before it dies (WAIT), so
    // what is killed is the node, not an acknowledged write.
    const master = await cluster.masterOf(`{${tenants[0]?.tenant}}`);
    const replica = await cluster.replicaOf(master);
    const onIt = [];
    for (const t of tenants) {
      if ((await cluster.masterOf(`{${t.tenant}}`)) === master) {
        onIt.push(t);
      }
    }
    paused = true;
    await new Promise((resolve) => setTimeout(resolve, 300));
    await run(REDIS_CLI, ["-h", "127.0.0.1", "-p", String(master.port), "WAIT", "1", "1000"]);
    master.child.kill("SIGKILL");
    paused = false;
    await cluster.promoted(replica);
    const promotedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, RENEWED_WITHIN_MS));
    ticking = false;
    await loop;

    expect(onIt.length).toBeGreaterThan(0);
    const late = tenants.filter(
      (t) => !t.renewedAt.some((at) => at > promotedAt && at <= promotedAt + RENEWED_WITHIN_MS),
    );
    expect(late.map((t) => t.tenant)).toEqual([]);
    // How long the tenants of the killed master waited after the promotion, for the record.
    const waits = onIt.map((t) => (t.renewedAt.find((at) => at > promotedAt) as number) - promotedAt);
    console.log(`renewed again ${Math.min(...waits)}-${Math.max(...waits)} ms after the promotion`);
    for (const t of tenants) {
      const sent = t.hosts.server.refreshTokensSent;
      expect(new Set(sent).size, `${t.tenant}: a refresh token presented twice`).toBe(sent.length);
    }
    for (const client of processes) {
      expect(await settlesWithin(client.close(), 5_000)).toBe(true);
    }
  }, 90_000);
});
