// The sandbox's own test helpers: a sandbox stopped after each test (in process, or on sockets where
// a test needs HTTP itself), on a clock that only moves when told. The HTTP helpers and the
// document checks come from the test kit.
import { fakeClock, stoppedAfterEach } from "@engage-voice/test-kit";
import { vi } from "vitest";
import { createSandboxApps, type SandboxOptions } from "../src/app.js";
import { type RunningSandbox, type StartSandboxOptions, startSandbox } from "../src/node.js";

export * from "@engage-voice/test-kit";

/** A fixed, moveable clock at 2030-01-01 12:00 UTC: expiry and rate limits are tested without waiting. */
export const manualClock = (start = Date.UTC(2030, 0, 1, 12, 0, 0)) => fakeClock(start);

/** A sandbox on two real sockets on 127.0.0.1, stopped after the current test: for what needs HTTP itself. */
export const openServer = stoppedAfterEach((options: StartSandboxOptions = {}) => startSandbox(options));

// In-process sandboxes answer on made-up loopback origins (loopback, so that the token manager allows
// plain http): a request to one goes to its app's fetch, with no socket; every other request goes
// to the network as before.
const inProcess = new Map<string, (request: Request) => Response | Promise<Response>>();
const networkFetch = globalThis.fetch;
vi.stubGlobal("fetch", (input: string | URL | Request, init?: RequestInit) => {
  const request = new Request(input, init);
  const app = inProcess.get(new URL(request.url).origin);
  return app ? app(request) : networkFetch(request);
});

/**
 * A made-up origin no other in-process sandbox holds, on a privileged port that no test server
 * takes: were the routing ever skipped, nothing would answer. Ports are reused once stopped, since
 * the files of a worker share this module; 80 is left out, as a URL drops it from its origin.
 */
function freeOrigin(): string {
  for (let port = 1; port < 1024; port++) {
    const origin = `http://127.0.0.1:${port}`;
    if (port !== 80 && !inProcess.has(origin)) {
      return origin;
    }
  }
  throw new Error("More than a thousand in-process sandboxes at once: stop some first");
}

async function startInProcess(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const { main, legacy, seed, faults, control, settings, tenant } = createSandboxApps(options);
  const mainUrl = freeOrigin();
  inProcess.set(mainUrl, (request) => main.fetch(request));
  const legacyUrl = freeOrigin();
  inProcess.set(legacyUrl, (request) => legacy.fetch(request));
  const stop = async () => {
    inProcess.delete(mainUrl);
    inProcess.delete(legacyUrl);
  };
  return { mainUrl, legacyUrl, seed, faults, control, settings, tenant, stop };
}

const openInProcess = stoppedAfterEach(startInProcess);

/** A sandbox served in this process through its apps' fetch (no socket), stopped after the current test. */
export const open = (options: SandboxOptions = {}): Promise<RunningSandbox> => openInProcess(options);
