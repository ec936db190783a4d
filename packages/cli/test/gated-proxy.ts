// A pass-through proxy in front of a sandbox host that can hold the answers to one path until the
// test lets them go. A wait then lasts exactly as long as the test needs (until the spinner is on
// the screen), where a fixed server-side delay would race the child's timers on a loaded machine.
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface GatedProxy {
  url: string;
  /** Holds every request to `path` from now on; the returned function lets them through. */
  hold(path: string): () => void;
  close(): Promise<void>;
}

export async function gatedProxy(target: string): Promise<GatedProxy> {
  const { hostname, port } = new URL(target);
  const gates = new Map<string, Promise<void>>();
  const server = createServer((incoming, outgoing) => {
    const path = new URL(incoming.url ?? "/", target).pathname;
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
