// `pnpm start` (after `turbo run build`): serves the API reference and a Prism mock of both hosts on
// 127.0.0.1 and prints their URLs, until Ctrl-C.
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundledSpec, freePort, startPrism } from "./prism.mjs";
import { serveStatic } from "./serve-static.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const docsDist = join(root, "apps", "docs", "dist");

async function portOr(preferred) {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => freePort().then(resolve));
    probe.listen(preferred, "127.0.0.1", () => probe.close(() => resolve(preferred)));
  });
}

// The reference page offers the bundled document for download next to it.
await copyFile(bundledSpec, join(docsDist, "openapi.json"));
const docs = await serveStatic(docsDist, { port: await portOr(8080) });
const prism = await startPrism({ port: await portOr(4010) });

console.log(`
Engage Voice SDK: local services (127.0.0.1 only)

  API reference        ${docs.url}/reference.html
  Getting started      ${docs.url}/
  Bundled document     ${docs.url}/openapi.json
  Prism mock (both hosts, stateless, --errors)
                       ${prism.url}

Try the mock:
  curl -s ${prism.url}/voice/api/v1/admin/accounts -H 'Authorization: Bearer any'
  curl -s -X POST '${prism.url}/api/auth/login/rc/accesstoken?includeRefresh=true' \\
       --data-urlencode 'rcAccessToken=any' --data-urlencode 'rcTokenType=Bearer'

Ctrl-C stops everything.
`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.all([prism.stop(), docs.stop()]);
  process.exit(0);
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
