// Node entry: both hosts on 127.0.0.1, each on its own port. This is what `pnpm start`, the
// end-to-end tests, the runtime matrix and the benchmarks start.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ApiError } from "@engage-voice/client";
import { getRequestListener, type HttpBindings } from "@hono/node-server";
import type { Hono } from "hono";
import { createSandboxApps, type RunningSandbox } from "./app.js";
import { type SandboxLogger, type SandboxOptions, SandboxOptionsError } from "./options.js";

export * from "./app.js";

export interface StartSandboxOptions extends Omit<SandboxOptions, "dropConnection"> {
  /** Port of the contact-center host; 0 (the default) lets the OS pick a free one. */
  mainPort?: number;
  /** Port of the deprecated login host; 0 (the default) lets the OS pick a free one. */
  legacyPort?: number;
  /**
   * `true` where the process is the sandbox's own (its command line sets it): @hono/node-server's
   * lightweight `Request` and `Response` replace the process's globals, and the sandbox answers
   * about twice as many requests per CPU-second. Default `false`: the process's own classes stay, as
   * clients in the same process need (a `Response` their `fetch` returns is not an instance of the
   * replaced global, which openapi-fetch's middleware checks).
   */
  overrideGlobalObjects?: boolean;
}

const HOST = "127.0.0.1";

/** The Node entry's default: a failure of the sandbox itself shows where it was started. */
const stderrLogger: SandboxLogger = { error: (message) => void process.stderr.write(`${message}\n`) };

function checkPort(port: number | undefined, name: string): number {
  if (port === undefined) {
    return 0;
  }
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SandboxOptionsError(`${name} must be an integer from 0 to 65535`);
  }
  return port;
}

function badRequest(): Response {
  return Response.json(
    {
      errorCode: "request.validation.exception",
      generalMessage: "The request could not be read",
      details: "",
      requestUri: "",
      timestamp: Date.now(),
    } satisfies ApiError,
    { status: 400 },
  );
}

/**
 * Whether a `Host` header names this machine. A page on another site can point its own domain at
 * 127.0.0.1 (DNS rebinding) and then reach the sandbox as a same-origin server: its `Host` header
 * still names that domain, so it is refused.
 */
function isLoopbackHost(host: string | undefined): boolean {
  const name = (host ?? "").toLowerCase().replace(/:\d{1,5}$/, "");
  return name === "localhost" || name === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(name);
}

/** The document's JSON error, for answers written below Hono (no route, so no `requestUri`). */
function errorBody(generalMessage: string): string {
  return JSON.stringify({
    errorCode: "request.validation.exception",
    generalMessage,
    details: "",
    requestUri: "",
    timestamp: Date.now(),
  });
}

/**
 * How long the sandbox keeps an idle kept-alive connection open: longer than the clients in front of
 * it keep theirs (undici 4 s, Node's agent 5 s, as Prism's proxy uses), so the client closes first. With
 * Node's default of 5 s, a client stalled on a busy CI machine could send its next request on a
 * socket the sandbox had just closed, and fail with ECONNRESET.
 */
export const IDLE_CONNECTION_MS = 65_000;

/** A port of `startSandbox` that another process (or sandbox) listens on already. */
export class SandboxPortInUseError extends Error {
  override readonly name = "SandboxPortInUseError";
  readonly code = "port_in_use";
  constructor(
    readonly port: number,
    /** The option that asked for it, which a command line maps to its own flag. */
    readonly option: "mainPort" | "legacyPort",
    cause: unknown,
  ) {
    super(`${option} ${port}: the port is in use on ${HOST}: give another port, or 0 for a free one`, {
      cause,
    });
  }
}

function listen(
  app: Hono,
  port: number,
  option: SandboxPortInUseError["option"],
  overrideGlobalObjects: boolean,
): Promise<Server> {
  const handle = getRequestListener(app.fetch, {
    hostname: HOST,
    // The process's own Request and Response unless the process is the sandbox's (the option's doc).
    overrideGlobalObjects,
    errorHandler: badRequest,
  });
  const server = createServer((request, response) => {
    if (isLoopbackHost(request.headers.host)) {
      return void handle(request, response);
    }
    const body = errorBody(
      "This sandbox answers requests for 127.0.0.1, localhost or [::1] only: a Host header naming another site is refused (DNS rebinding)",
    );
    response.writeHead(400, {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
    });
    response.end(body);
  });
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  server.headersTimeout = IDLE_CONNECTION_MS + 1_000;
  // A request Node's parser refuses (a bad header byte, a body without framing) gets the same JSON
  // error as every other, not Node's bare 400.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === "ECONNRESET") {
      return void socket.destroy();
    }
    const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
    const body = errorBody("The request could not be read: it is not well-formed HTTP/1.1");
    socket.end(
      `HTTP/1.1 ${tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new SandboxPortInUseError(port, option, error) : error);
    server.once("error", failed);
    server.listen(port, HOST, () => {
      server.off("error", failed);
      resolve(server);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      return resolve();
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function urlOf(server: Server): string {
  return `http://${HOST}:${(server.address() as AddressInfo).port}`;
}

/** Starts the sandbox: two servers on 127.0.0.1 over one in-memory state. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const mainPort = checkPort(options.mainPort, "mainPort");
  const legacyPort = checkPort(options.legacyPort, "legacyPort");
  const { overrideGlobalObjects = false, ...appOptions } = options;
  if (typeof overrideGlobalObjects !== "boolean") {
    throw new SandboxOptionsError("overrideGlobalObjects must be true or false");
  }
  const { main, legacy, seed, faults, control, settings, tenant } = createSandboxApps({
    ...appOptions,
    logger: options.logger ?? stderrLogger,
    dropConnection: (env) => (env as HttpBindings).incoming.socket.destroy(),
  });
  const mainServer = await listen(main, mainPort, "mainPort", overrideGlobalObjects);
  let legacyServer: Server;
  try {
    legacyServer = await listen(legacy, legacyPort, "legacyPort", overrideGlobalObjects);
  } catch (error) {
    await close(mainServer);
    throw error;
  }
  return {
    mainUrl: urlOf(mainServer),
    legacyUrl: urlOf(legacyServer),
    seed,
    faults,
    control,
    settings,
    tenant,
    stop: async () => {
      await Promise.all([close(mainServer), close(legacyServer)]);
    },
  };
}

export { describeSandbox, typeScriptExample } from "./describe.js";
