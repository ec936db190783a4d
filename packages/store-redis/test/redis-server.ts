// vitest globalSetup: one real redis-server (Debian's) on a free loopback port for the whole run,
// without persistence, stopped after. Tests get its URL with inject("redisUrl").
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, Socket } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

const REDIS_SERVER = "/usr/bin/redis-server";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

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

let server: ChildProcess | undefined;

export async function setup(project: TestProject): Promise<void> {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(
      `${REDIS_SERVER} is missing: the store-redis tests need Debian's redis-server. Run scripts/setup.sh (as root it installs it).`,
    );
  }
  const port = await freePort();
  const child = spawn(
    REDIS_SERVER,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  server = child;
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  const deadline = Date.now() + 10_000;
  while (!(await ping(port))) {
    if (exited || Date.now() > deadline) {
      await teardown();
      throw new Error(`redis-server did not answer PING on 127.0.0.1:${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  project.provide("redisUrl", `redis://127.0.0.1:${port}`);
}

export async function teardown(): Promise<void> {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}
