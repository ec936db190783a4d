// A real Redis Cluster of three masters (no replicas) on free loopback ports, each redis-server with a
// folder of its own for its cluster config, no persistence, and killed with this process if it dies
// first. What the Redis store's tests run against besides a single server.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type RunningRedis, startRedis } from "./redis.js";

export const REDIS_CLI = "/usr/bin/redis-cli";

const run = promisify(execFile);

export interface RunningRedisCluster {
  /** The masters, one `{ url, port, child }` each; any of them is a root node for a cluster client. */
  nodes: RunningRedis[];
  /** `redis://127.0.0.1:<port>` of every master. */
  urls: string[];
  /** Stops every node and removes their folders; resolves once all have exited. */
  stop(): Promise<void>;
}

/** `CLUSTER INFO` of one node, through redis-cli. */
async function clusterInfo(port: number): Promise<string> {
  const { stdout } = await run(REDIS_CLI, ["-h", "127.0.0.1", "-p", String(port), "cluster", "info"]);
  return stdout;
}

/**
 * Starts `masters` redis-servers with `--cluster-enabled yes`, joins them with
 * `redis-cli --cluster create` (every slot assigned, no replicas), and resolves once every node says
 * `cluster_state:ok`. `readyWithinMs` is a hang guard.
 */
export async function startRedisCluster({
  masters = 3,
  readyWithinMs = 30_000,
}: {
  masters?: number;
  readyWithinMs?: number;
} = {}): Promise<RunningRedisCluster> {
  const folders: string[] = [];
  const nodes: RunningRedis[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  };
  try {
    for (let i = 0; i < masters; i++) {
      const dir = await mkdtemp(join(tmpdir(), "ev-redis-cluster-"));
      folders.push(dir);
      nodes.push(
        await startRedis({
          args: ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--dir", dir],
        }),
      );
    }
    await run(REDIS_CLI, [
      "--cluster",
      "create",
      ...nodes.map((node) => `127.0.0.1:${node.port}`),
      "--cluster-replicas",
      "0",
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
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes, urls: nodes.map((node) => node.url), stop };
}
