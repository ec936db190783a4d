// A minimal static file server for the built reference (apps/docs/dist), on 127.0.0.1 only.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize, sep } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".json": "application/json",
  ".yaml": "text/yaml",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

// Browsers and tools ask for /favicon.ico whatever the page says; the docs build writes an SVG icon.
const ALIASES = { "/favicon.ico": "/favicon.svg" };

/**
 * Serves `root`. `transform(pathname, body)` may rewrite a file as it is served (pathname as on disk,
 * e.g. "/index.html" for "/").
 */
export function serveStatic(root, { port = 0, transform = (_pathname, body) => body } = {}) {
  const server = createServer(async (request, response) => {
    const requested = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    const aliased = ALIASES[requested] ?? requested;
    const pathname = aliased.endsWith("/") ? `${aliased}index.html` : aliased;
    const file = normalize(join(root, pathname));
    if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) {
      response.writeHead(403).end();
      return;
    }
    let body;
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
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        stop: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
