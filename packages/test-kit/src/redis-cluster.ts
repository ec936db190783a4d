// A real Redis Cluster on free loopback ports (three masters, and a replica each when asked), each
// redis-server with a folder of its own for its cluster config, no persistence, and killed with this
// process if it dies first. What the Redis store's tests run against besides a single server, and
// where they kill a master to see its replica take over.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type RunningRedis, startRedis } from "./redis.js";

export const REDIS_CLI = "/usr/bin/redis-cli";

const run = promisify(execFile);

export interface RunningRedisCluster {
  /** Every node, masters first, one `{ url, port, child }` each; any of them is a root node for a client. */
  nodes: RunningRedis[];
  /** `redis://127.0.0.1:<port>` of every node. */
  urls: string[];
  /** The node that serves `key`'s slot as its master now. */
  masterOf(key: string): Promise<RunningRedis>;
  /** Resolves once `node` is a master (a replica promoted after its master died); the time it took. */
  promoted(node: RunningRedis, withinMs?: number): Promise<void>;
  /** The replica of `master`. */
  replicaOf(master: RunningRedis): Promise<RunningRedis>;
  /** Stops every node and removes their folders; resolves once all have exited. */
  stop(): Promise<void>;
}

/** `CLUSTER INFO` of one node, through redis-cli. */
async function clusterInfo(port: number): Promise<string> {
  const { stdout } = await run(REDIS_CLI, ["-h", "127.0.0.1", "-p", String(port), "cluster", "info"]);
  return stdout;
}

const cli = async (port: number, ...args: string[]) =>
  (await run(REDIS_CLI, ["-h", "127.0.0.1", "-p", String(port), ...args])).stdout.trim();

/**
 * Starts `masters` redis-servers with `--cluster-enabled yes` (and `replicas` more for each), joins
 * them with `redis-cli --cluster create` (every slot assigned), and resolves once every node says
 * `cluster_state:ok` and every replica is in sync. A replica takes over `nodeTimeoutMs` after its
 * master stops answering. `readyWithinMs` is a hang guard.
 */
export async function startRedisCluster({
  masters = 3,
  replicas = 0,
  nodeTimeoutMs = 2_000,
  readyWithinMs = 30_000,
}: {
  masters?: number;
  replicas?: number;
  nodeTimeoutMs?: number;
  readyWithinMs?: number;
} = {}): Promise<RunningRedisCluster> {
  const folders: string[] = [];
  const nodes: RunningRedis[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  };
  try {
    for (let i = 0; i < masters * (1 + replicas); i++) {
      const dir = await mkdtemp(join(tmpdir(), "ev-redis-cluster-"));
      folders.push(dir);
      nodes.push(
        await startRedis({
          args: [
            ...["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--dir", dir],
            ...["--cluster-node-timeout", String(nodeTimeoutMs), "--repl-diskless-sync-delay", "0"],
          ],
        }),
      );
    }
    await run(REDIS_CLI, [
      "--cluster",
      "create",
      ...nodes.map((node) => `127.0.0.1:${node.port}`),
      "--cluster-replicas",
      String(replicas),
      "--cluster-yes",
    ]);
    const deadline = Date.now() + readyWithinMs;
    for (const node of nodes) {
      while (!(await clusterInfo(node.port)).includes("cluster_state:ok")) {
        if (Date.now() > deadline) {
          throw new Error(
            `the Redis Cluster on ports ${nodes.map((n) => n.port).join(", ")} did not reach cluster_state:ok`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    // Every replica attached and in sync: one that has not finished its first sync refuses to take over.
    const inSync = async () => {
      const infos = await Promise.all(nodes.map((node) => cli(node.port, "info", "replication")));
      const synced = infos.filter((info) => /role:slave/.test(info) && /master_link_status:up/.test(info));
      return synced.length === masters * replicas;
    };
    while (!(await inSync())) {
      if (Date.now() > deadline) {
        throw new Error(
          `the replicas of the Redis Cluster did not sync with their masters in ${readyWithinMs} ms`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const byPort = (port: string | undefined) => {
    const node = nodes.find((n) => String(n.port) === port);
    if (!node) {
      throw new Error(`no node of this cluster on port ${port}`);
    }
    return node;
  };
  /** Asks the first node that answers: a node just killed may not have been seen exiting yet. */
  const ask = async (...args: string[]) => {
    let last: unknown;
    for (const node of nodes) {
      if (node.child.killed || node.child.exitCode !== null || node.child.signalCode !== null) {
        continue;
      }
      try {
        return await cli(node.port, ...args);
      } catch (error) {
        last = error;
      }
    }
    throw last ?? new Error("no node of this cluster answers");
  };
  /** `id port role master-id` of each node, as a node still running sees them. */
  const view = async () =>
    (await ask("cluster", "nodes")).split("\n").map((line) => {
      const [id, address, flags, master] = line.split(" ");
      return { id, port: address?.split(":")[1]?.split("@")[0], flags: flags ?? "", master };
    });
  return {
    nodes,
    urls: nodes.map((node) => node.url),
    stop,
    async masterOf(key) {
      const slot = await ask("cluster", "keyslot", key);
      const shards = await ask("cluster", "slots");
      // redis-cli prints each range as: start, end, then the master's host, port and id.
      const lines = shards.split("\n");
      for (let i = 0; i + 3 < lines.length; i++) {
        const [start, end, , port] = lines.slice(i, i + 4);
        if (Number(start) <= Number(slot) && Number(slot) <= Number(end) && /^\d+$/.test(port ?? "")) {
          return byPort(port);
        }
      }
      throw new Error(`no master serves slot ${slot}`);
    },
    async replicaOf(master) {
      const all = await view();
      const id = all.find((n) => n.port === String(master.port))?.id;
      return byPort(all.find((n) => n.flags.includes("slave") && n.master === id)?.port);
    },
    async promoted(node, withinMs = 30_000) {
      const until = Date.now() + withinMs;
      while (!(await view()).some((n) => n.port === String(node.port) && n.flags.includes("master"))) {
        if (Date.now() > until) {
          throw new Error(`the replica on port ${node.port} was not promoted within ${withinMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}
