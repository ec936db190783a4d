// Debian's redis-server on a free loopback port, without persistence unless asked: the real server the
// Redis store's tests and the multi-process tests run against.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { Socket } from "node:net";
import { killedWithThisProcess } from "./die-with-parent.js";
import { freePort } from "./prism.js";

export const REDIS_SERVER = "/usr/bin/redis-server";

/** One PING over a raw socket: true once the server answers +PONG. */
export function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on("error", () => done(false));
    socket.on("data", (data) => done(data.toString().startsWith("+PONG")));
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
  });
}

/**
 * The process ID of the redis-server listening on `port`, from `INFO server`; `undefined` when none
 * answers. A port picked free can be taken by another suite's server before ours binds it: a PONG
 * alone could come from that one while ours is exiting with "address in use".
 */
export function serverPid(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let reply = "";
    const done = (pid: number | undefined) => {
      socket.destroy();
      resolve(pid);
    };
    socket.setTimeout(500, () => done(undefined));
    socket.on("error", () => done(undefined));
    socket.on("data", (data) => {
      reply += data.toString();
      const found = /process_id:(\d+)/.exec(reply);
      if (found) {
        done(Number(found[1]));
      }
    });
    socket.connect(port, "127.0.0.1", () => socket.write("INFO server\r\n"));
  });
}

export interface RunningRedis {
  url: string;
  port: number;
  child: ChildProcess;
  /** Resolves once the process has exited. */
  stop(): Promise<void>;
}

/**
/**
 * Starts redis-server on `port` (default a free one) and resolves once it answers, as itself. A free
 * port taken by someone else before the server bound it is given up for another one, twice at most.
 * With `appendOnlyDir`, it keeps an append-only file there, written through on every command, and a
 * restart on the same folder loads it: what a server killed and restarted from its AOF holds.
 */
export async function startRedis({
  port,
  appendOnlyDir,
  args = [],
}: {
  port?: number;
  appendOnlyDir?: string;
  /** More of redis-server's flags (`--cluster-enabled yes`, `--dir …`). */
  args?: readonly string[];
} = {}): Promise<RunningRedis> {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(
      `${REDIS_SERVER} is missing: these tests need Debian's redis-server. Run scripts/setup.sh (as root it installs it).`,
    );
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(port ?? (await freePort()), appendOnlyDir, args);
    } catch (error) {
      if (port !== undefined || attempt === 3) {
        throw error;
      }
    }
  }
}

async function startOn(
  listen: number,
  appendOnlyDir: string | undefined,
  args: readonly string[],
): Promise<RunningRedis> {
  const child = spawn(
    REDIS_SERVER,
    [
      ...["--port", String(listen), "--bind", "127.0.0.1", "--save", ""],
      ...(appendOnlyDir
        ? ["--appendonly", "yes", "--appendfsync", "always", "--dir", appendOnlyDir]
        : ["--appendonly", "no"]),
      ...args,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  killedWithThisProcess(child, { group: false });
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) {
      return;
    }
    const gone = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await gone;
  };
  const deadline = Date.now() + 10_000;
  while ((await serverPid(listen)) !== child.pid) {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not answer PING on 127.0.0.1:${listen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `redis://127.0.0.1:${listen}`, port: listen, child, stop };
}
