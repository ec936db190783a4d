// Hosts on 127.0.0.1 that answer as a test says (never, or a body that drips for ever), for the tests
// of deadlines and bounded reads over real sockets; and a wait during which the collector runs, since
// undici links a request to its signal weakly and a lost link shows only after a collection.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export interface LoopbackHost {
  /** `http://127.0.0.1:<port>`, a port the system gave. */
  base: string;
  /** Settles when the connection of the host's first request closes: the client gave it up. */
  firstConnectionClosed: Promise<void>;
  stop(): Promise<void>;
}

export type Answer = (response: ServerResponse, url: string) => void;

/** A host whose every answer `answer` writes; nothing ends unless it says so. Open it with `stoppedAfterEach`. */
export async function startLoopbackHost(answer: Answer): Promise<LoopbackHost> {
  let closed = () => {};
  const firstConnectionClosed = new Promise<void>((resolve) => {
    closed = resolve;
  });
  const server = createServer((request, response) => {
    request.resume();
    request.socket.once("close", closed);
    answer(response, request.url ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    firstConnectionClosed,
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** An answer that never comes. */
export const neverAnswer: Answer = () => {};

/** Headers at once, then `first`, then a space every `everyMs`, for ever. */
export function drip({
  everyMs = 50,
  status = 200,
  contentType = "application/json",
  first = "[",
}: {
  everyMs?: number;
  status?: number;
  contentType?: string;
  first?: string;
} = {}): Answer {
  return (response) => {
    response.writeHead(status, { "Content-Type": contentType });
    response.write(first);
    const timer = setInterval(() => response.write(" "), everyMs);
    response.on("close", () => clearInterval(timer));
  };
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Waits for `promise` while the program allocates and the collector runs, as an ordinary app would. */
export async function underGarbageCollection<T>(promise: Promise<T>): Promise<T> {
  let settled = false;
  const done = promise.finally(() => {
    settled = true;
  });
  // Settled into a value here too: a rejection seen only after the loop would count as unhandled.
  done.catch(() => {});
  let garbage: unknown[] = [];
  while (!settled) {
    garbage.push(new Array(50_000).fill({ x: Math.random() }));
    if (garbage.length > 20) {
      garbage = [];
    }
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return done;
}
