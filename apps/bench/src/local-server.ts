import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";

export interface LocalServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts src/server.ts in a child process and resolves once it listens on 127.0.0.1. */
export async function startLocalServer(timeoutMs = 10_000): Promise<LocalServer> {
  const child: ChildProcess = fork(new URL("./server.ts", import.meta.url), [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: [],
  });
  const ready = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the local server did not start within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.once("message", (message) => {
      clearTimeout(timer);
      resolve((message as { port: number }).port);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the local server exited with code ${code} before listening`));
    });
  });
  let port: number;
  try {
    port = await ready;
  } catch (error) {
    child.kill();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) {
        return;
      }
      const exited = once(child, "exit");
      child.disconnect();
      const timer = setTimeout(() => child.kill(), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
