// A minimal static file server (the built reference, the runtime matrix's browser pages), on 127.0.0.1 only.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".yaml": "text/yaml",
  ".md": "text/markdown; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

// Browsers and tools ask for /favicon.ico whatever the page says; the docs build writes an SVG icon.
const ALIASES: Record<string, string> = { "/favicon.ico": "/favicon.svg" };

export interface StaticServer {
  url: string;
  stop(): Promise<void>;
}

export interface StaticOptions {
  /** Default a free port. */
  port?: number;
  /** Rewrites a file as it is served; `pathname` as on disk, e.g. "/index.html" for "/". */
  transform?: (pathname: string, body: Buffer) => string | Buffer | Promise<string | Buffer>;
}

/** Serves the files under `root`; nothing outside it. */
export function serveStatic(root: string, { port = 0, transform = (_p, body) => body }: StaticOptions = {}) {
  const server = createServer(async (request, response) => {
    let requested: string;
    try {
      requested = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    } catch {
      response.writeHead(400).end();
      return;
    }
    const aliased = ALIASES[requested] ?? requested;
    const pathname = aliased.endsWith("/") ? `${aliased}index.html` : aliased;
    const file = normalize(join(root, pathname));
    if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) {
      response.writeHead(403).end();
      return;
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      response.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
      return;
    }
    response
      .writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" })
      .end(await transform(pathname, body));
  });
  return new Promise<StaticServer>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        // Open keep-alive connections (a browser's) would hold close() until they time out.
        stop: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
