// Starts the pinned Prism CLI on 127.0.0.1 and stops it: one implementation for the contract tests,
// `pnpm mock` and `pnpm start`. Prism is spawned as `node <entry>` (not through the .bin shim, which
// does not exec) so that killing the child's PID stops the server.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const requireFromSpec = createRequire(join(root, "spec", "package.json"));

export const bundledSpec = join(root, "spec", "dist", "openapi.json");

/** A free TCP port on 127.0.0.1, as the OS hands it out. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether something already listens on 127.0.0.1:`port`: then a readiness probe would ask it, not Prism. */
export function portInUse(port) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (error) => (error.code === "EADDRINUSE" ? resolve(true) : reject(error)));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(false)));
  });
}

async function waitUntilReady(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`Prism exited with code ${child.exitCode} before it was ready`);
    }
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new Error(`Prism was not ready at ${url} within ${timeoutMs} ms`);
}

/**
 * Starts `prism mock` (or `prism proxy` when `upstream` is given) with `--errors`.
 * Returns `{ url, stop }`; `stop()` resolves once the process has exited.
 */
export async function startPrism({
  spec = bundledSpec,
  port,
  upstream,
  errors = true,
  verbose = "warn",
  stdio = "pipe",
  timeoutMs = 30_000,
} = {}) {
  const entry = requireFromSpec.resolve("@stoplight/prism-cli/dist/index.js");
  const listenPort = port ?? (await freePort());
  const args = upstream ? ["proxy", spec, upstream] : ["mock", spec];
  args.push("--host", "127.0.0.1", "--port", String(listenPort), "-v", verbose);
  if (errors) {
    args.push("--errors");
  }
  const child = spawn(process.execPath, [entry, ...args], { stdio: ["ignore", stdio, stdio] });
  let output = "";
  if (stdio === "pipe") {
    child.stdout.on("data", (chunk) => (output = (output + chunk).slice(-4000)));
    child.stderr.on("data", (chunk) => (output = (output + chunk).slice(-4000)));
  }
  const url = `http://127.0.0.1:${listenPort}`;
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        return resolve();
      }
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 3000).unref();
    });
  try {
    await waitUntilReady(url, child, timeoutMs);
  } catch (error) {
    await stop();
    throw new Error(`${error.message}\n${output}`);
  }
  return { url, stop, child };
}
