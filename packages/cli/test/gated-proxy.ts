// A pass-through proxy in front of a sandbox host that can hold the answers to one path until the
// test lets them go. A wait then lasts exactly as long as the test needs (until the spinner is on
// the screen), where a fixed server-side delay would race the child's timers on a loaded machine.
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface GatedProxy {
  url: string;
  /** Holds every request to `path` from now on; the returned function lets them through. */
  hold(path: string): () => void;
  /** Resolves once `count` requests to `path` have arrived (counted from the proxy's start). */
  arrived(path: string, count?: number): Promise<void>;
  /** Answers the requests to `path` with `answer` instead of the sandbox (a hostile or broken host). */
  answer(path: string, answer: (incoming: IncomingMessage, outgoing: ServerResponse) => void): void;
  close(): Promise<void>;
}

export async function gatedProxy(target: string): Promise<GatedProxy> {
  const { hostname, port } = new URL(target);
  const gates = new Map<string, Promise<void>>();
  const answers = new Map<string, (incoming: IncomingMessage, outgoing: ServerResponse) => void>();
  const counts = new Map<string, number>();
  const waiting: { path: string; count: number; resolve: () => void }[] = [];
  const server = createServer((incoming, outgoing) => {
    const path = new URL(incoming.url ?? "/", target).pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    for (const wait of waiting.filter((w) => w.path === path && w.count <= (counts.get(path) ?? 0))) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
    // A client that went away mid-answer is the test's business, not an uncaught error.
    outgoing.on("error", () => {});
    const own = answers.get(path);
    if (own) {
      own(incoming, outgoing);
      return;
    }
    void (gates.get(path) ?? Promise.resolve()).then(() => {
      const upstream = request(
        {
          hostname,
          port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: `${hostname}:${port}` },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on("error", () => outgoing.destroy());
      incoming.pipe(upstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold(path) {
      let release = () => {};
      gates.set(
        path,
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      );
      return () => {
        gates.delete(path);
        release();
      };
    },
    arrived(path, count = 1) {
      return (counts.get(path) ?? 0) >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiting.push({ path, count, resolve }));
    },
    answer(path, answer) {
      answers.set(path, answer);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
