// Starts the pinned Prism CLI on 127.0.0.1 and stops it: one implementation for the contract tests,
// `pnpm mock` and `pnpm start`. Prism is spawned as `node <entry>` (not through the .bin shim, which
// does not exec) so that killing the child's PID stops the server.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { type AddressInfo, createServer } from "node:net";
import { killedWithThisProcess } from "./die-with-parent.js";

const require = createRequire(import.meta.url);

/** The bundled document of `@engage-voice/spec`. */
export const bundledSpec = require.resolve("@engage-voice/spec/openapi.json");

/** A free TCP port on 127.0.0.1, as the OS hands it out. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something already listens on 127.0.0.1:`port`: then a readiness probe would ask it, not Prism. */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) =>
      error.code === "EADDRINUSE" ? resolve(true) : reject(error),
    );
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(false)));
  });
}

/** Prism ended before it answered: its port was taken, or it could not start. */
class ExitedEarly extends Error {}

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new ExitedEarly(`Prism exited with code ${child.exitCode} before it was ready`);
    }
    try {
      // A CORS preflight: Prism answers it before routing, so the probe prints no error line (a GET
      // of `/`, a path of no operation, printed NO_PATH_MATCHED_ERROR at every `pnpm mock`).
      await fetch(url, {
        method: "OPTIONS",
        headers: { Origin: "http://127.0.0.1", "Access-Control-Request-Method": "GET" },
        signal: AbortSignal.timeout(1000),
      });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new Error(`Prism was not ready at ${url} within ${timeoutMs} ms`);
}

export interface PrismOptions {
  /** The document to mock. Default the bundled one. */
  spec?: string;
  /** Default (and 0, as for Node's servers) a port the system gives. */
  port?: number;
  /** Proxy to this server (`prism proxy`), validating its answers, instead of mocking. */
  upstream?: string;
  /** `--errors`: a request or answer that breaks the contract is an error. Default true. */
  errors?: boolean;
  verbose?: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  stdio?: "pipe" | "inherit" | "ignore";
  /** How long Prism may take to answer its first request. Default 60 s. */
  timeoutMs?: number;
}

export interface RunningPrism {
  url: string;
  /** Resolves once the process has exited. */
  stop(): Promise<void>;
  child: ChildProcess;
}

/**
 * Starts `prism mock` (or `prism proxy` when `upstream` is given) on 127.0.0.1. Without a `port` (or 0) and
 * with its output piped (the tests), Prism binds a port the system gives it (`--port 0`) and is ready
 * when it says where it listens: no port is picked here and then taken by another server before Prism
 * binds it, and no other server can answer a readiness probe in Prism's place. With a port given, or
 * its output on the terminal, it is probed until it answers; a port taken before Prism bound it ends
 * Prism at once, and another free port is tried, twice at most.
 */
export async function startPrism(options: PrismOptions = {}): Promise<RunningPrism> {
  const port = options.port === 0 ? undefined : options.port;
  if (port === undefined && (options.stdio ?? "pipe") === "pipe") {
    return startPrismOn(0, options);
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPrismOn(port ?? (await freePort()), options);
    } catch (error) {
      if (port !== undefined || attempt === 3 || !(error instanceof ExitedEarly)) {
        throw error;
      }
    }
  }
}

/**
 * Loaded into Prism's process before Prism: its HTTP server keeps idle connections open (Node's
 * default closes them after 5 s). A test process stalled on a busy machine past that moment would
 * otherwise send its next request on a socket the server had just closed, and fail with ECONNRESET
 * (seen in the sandbox's conformance test and the generators' test under double load). Retrying is
 * no cure there: a resent refresh spends a token.
 */
const NO_IDLE_CLOSE = `data:text/javascript,${encodeURIComponent(
  'import http from "node:http"; const create = http.createServer; http.createServer = (...a) => { const s = create(...a); s.keepAliveTimeout = 0; return s; };',
)}`;

/** Resolves with the URL Prism says it listens on; rejects if it exits first or `timeoutMs` passes. */
function announcedUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(
      () => done(new Error(`Prism did not say where it listens within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk).slice(-2000);
      const url = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen)?.[1];
      if (url) {
        done(undefined, url);
      }
    };
    const onExit = () =>
      done(new ExitedEarly(`Prism exited with code ${child.exitCode} before it was ready`));
    function done(error: Error | undefined, url?: string) {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.off("exit", onExit);
      if (error) {
        reject(error);
      } else {
        resolve(url as string);
      }
    }
    child.stdout?.on("data", onData);
    child.once("exit", onExit);
  });
}

async function startPrismOn(
  listenPort: number,
  {
    spec = bundledSpec,
    upstream,
    errors = true,
    verbose = "warn",
    stdio = "pipe",
    timeoutMs = 60_000,
  }: PrismOptions,
): Promise<RunningPrism> {
  const entry = require.resolve("@stoplight/prism-cli/dist/index.js");
  const args = upstream ? ["proxy", spec, upstream] : ["mock", spec];
  // Port 0: Prism's own "listening" line (an info line) says which port it got.
  args.push("--host", "127.0.0.1", "--port", String(listenPort), "-v", listenPort === 0 ? "info" : verbose);
  if (errors) {
    args.push("--errors");
  }
  const child = spawn(process.execPath, ["--import", NO_IDLE_CLOSE, entry, ...args], {
    stdio: ["ignore", stdio, stdio],
  });
  killedWithThisProcess(child, { group: false });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let url = `http://127.0.0.1:${listenPort}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve();
        return;
      }
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 3000).unref();
    });
  try {
    if (listenPort === 0) {
      url = await announcedUrl(child, timeoutMs);
    } else {
      await waitUntilReady(url, child, timeoutMs);
    }
  } catch (error) {
    await stop();
    const Failure = error instanceof ExitedEarly ? ExitedEarly : Error;
    throw new Failure(`${(error as Error).message}\n${output}`);
  }
  return { url, stop, child };
}
