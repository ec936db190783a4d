// A script that makes one call and ends must end with its result or its typed error, never early:
// a wait that a caller awaits (a retry, a 429, a shared renewal) keeps the process alive. Run as real
// child processes, ESM and CommonJS, on Node 20 (the system's) and Node 24 (the workspace's), since a
// test runner's own event loop would hide an early exit.
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { type Fault, type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { neverAnswer, startLoopbackHost } from "@engage-voice/test-kit";
import { run } from "@engage-voice/test-kit/processes";
import { describe, expect, it } from "vitest";

const EXCHANGE = "/api/auth/login/rc/accesstoken";
const ACCOUNTS = "/voice/api/v1/admin/accounts";
const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

// pnpm puts the workspace's Node 24 first on PATH for scripts, so Node 20 is named by its path.
const nodes = [
  ["Node 24", process.execPath],
  ["Node 20", "/usr/bin/node"],
].filter(([, binary]) => existsSync(binary as string)) as [string, string][];

const scripts = [
  ["ESM", fixture("one-shot.mjs")],
  ["CommonJS", fixture("one-shot.cjs")],
] as const;

/**
 * A host that is down as a client sees it: every connection is dropped at once. The test holds the
 * port, so no other server on a busy machine can take it and answer in its place (a port closed
 * and left free could be taken).
 */
async function droppingHost(): Promise<{ base: string; close: () => Promise<void> }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Scenario {
  faults: Fault[];
  /** What the script prints on stdout, and its exit code. */
  stdout: RegExp;
  code: number;
  /** The retry line the library logs on its way. */
  logged: RegExp;
}

const scenarios: Record<string, Scenario> = {
  "the exchange answers 503 every time": {
    faults: [{ kind: "status", status: 503, path: EXCHANGE, times: 10 }],
    stdout: /^error unexpected_response\n$/,
    code: 1,
    logged: /The token exchange answered 503 \(sandbox\.injected\.fault\): trying again in \d+ ms/,
  },
  "a GET answers 503 once": {
    faults: [{ kind: "status", status: 503, path: ACCOUNTS }],
    stdout: /^ok 200 \d+\n$/,
    code: 0,
    logged: /GET \/voice\/api\/v1\/admin\/accounts answered 503: trying again in \d+ ms/,
  },
  "a GET answers 429 with Retry-After": {
    faults: [{ kind: "rate-limit", retryAfterSeconds: 1, path: ACCOUNTS }],
    stdout: /^ok 200 \d+\n$/,
    code: 0,
    // Retry-After in full plus the client's jitter: the exact waits are the client's unit tests'.
    logged: /GET \/voice\/api\/v1\/admin\/accounts answered 429: trying again in \d+ ms/,
  },
};

describe.concurrent.each(nodes)("a one-shot script on %s", (_, binary) => {
  describe.each(scripts)("in %s", (_, script) => {
    it("whose host drops every connection ends with a typed error and exit 1, after its retries", async () => {
      const host = await droppingHost();
      // Node 20's fetch leaves a connection reset before its answer pending: the call's deadline ends
      // it (request_timeout) where Node 24 reports the reset (network_error) and retries; never an
      // early exit.
      const { code, stdout, stderr } = await run(binary, [
        script,
        host.base,
        "sandbox-rc-token-ada",
        "10000",
      ]).finally(host.close);
      expect(code).toBe(1);
      if (stdout === "error request_timeout\n") {
        // The pending exchange is given up with its caller at the deadline: no retry for nobody.
        expect(stderr).not.toMatch(/trying again/);
      } else {
        expect(stdout).toBe("error network_error\n");
        expect(stderr).toMatch(/The token exchange got no answer[^\n]*: trying again in \d+ ms/);
      }
    });

    it("whose host never answers ends at its deadline with request_timeout and exit 1", async () => {
      // Nothing but the deadline's timer is left to keep the process alive while the call waits.
      const host = await startLoopbackHost(neverAnswer);
      const { code, stdout } = await run(binary, [script, host.base, "sandbox-rc-token-ada", "500"]).finally(
        host.stop,
      );
      expect(stdout).toBe("error request_timeout\n");
      expect(code).toBe(1);
    });

    it("whose caller gave up on the exchange makes no further token call for nobody, and ends", async () => {
      // The exchange has retries left when the caller's deadline passes: a renewal nobody waits for
      // any more must neither hold the process nor spend the exchange's limit.
      const received: string[] = [];
      const host = await startLoopbackHost((response, url) => {
        received.push(url);
        neverAnswer(response, url);
      });
      const { code, stdout } = await run(binary, [script, host.base, "sandbox-rc-token-ada", "800"]).finally(
        host.stop,
      );
      expect(stdout).toBe("error request_timeout\n");
      expect(code).toBe(1);
      expect(received).toEqual([`${EXCHANGE}?includeRefresh=true`]);
    });

    it.each(Object.entries(scenarios))("where %s ends as it should", async (_, scenario) => {
      const sandbox: RunningSandbox = await startSandbox({ faults: { enabled: true } });
      try {
        for (const fault of scenario.faults) {
          sandbox.faults.next(fault);
        }
        const parent = sandbox.seed.parentTokens[0]?.token as string;
        const { code, stdout, stderr } = await run(binary, [script, sandbox.mainUrl, parent]);
        expect(stdout).toMatch(scenario.stdout);
        expect(code).toBe(scenario.code);
        expect(stderr).toMatch(scenario.logged);
      } finally {
        await sandbox.stop();
      }
    });
  });
});
