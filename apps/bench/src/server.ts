// A minimal server of the two operations the bench calls, run in its own process (on the other
// core) so that its work is not timed on the client's event loop. Listens on 127.0.0.1, port 0,
// tells the parent its port over IPC, and exits when the parent disconnects.
import { createServer } from "node:http";
import { ACCOUNTS_BODY, ACCOUNTS_PATH, EXCHANGE_PATH, REFRESH_PATH, tokenBody } from "./stub.ts";

// Longer than a run, so that no refresh falls inside the timed calls: refreshes are measured apart.
const TOKEN_LIFETIME_MS = 60 * 60_000;
let serial = 0;
const server = createServer((request, response) => {
  const path = request.url?.split("?")[0];
  request.resume();
  request.on("end", () => {
    if (request.method === "POST" && (path === EXCHANGE_PATH || path === REFRESH_PATH)) {
      serial += 1;
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(tokenBody(Date.now(), TOKEN_LIFETIME_MS, serial));
      return;
    }
    if (request.method === "GET" && path === ACCOUNTS_PATH) {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(ACCOUNTS_BODY);
      return;
    }
    response.writeHead(404, { "Content-Type": "text/plain" });
    response.end("not found");
  });
});

server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") {
    process.send?.({ port: address.port });
  }
});
process.on("disconnect", () => server.close(() => process.exit(0)));
