// The published sandbox's bin, `engage-voice-sandbox`, started as its own process from an npm-installed
// project, as `npx engage-voice-sandbox` starts it: given ports, the time control, a token lifetime
// and an extra parent token, all of which the scenario then depends on (it exchanges the extra token,
// moves the clock over HTTP, and reports the tokens' lifetime). Stopped with SIGTERM after, which
// must end it cleanly.
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { plainEnv } from "@engage-voice/release/env";
import { createSandboxApps } from "@engage-voice/sandbox";
import { startProcess, tail } from "@engage-voice/test-kit/processes";
import { binaryOf, type Runtime } from "../runtimes.ts";
import { type SandboxRun, sandboxRun } from "../sandbox.ts";
import type { SandboxProvider } from "./runtime.ts";

/** Differs from the default (300 s) so that the flag's effect shows in the tokens. */
const LIFETIME_SECONDS = 600;
/** A parent token the bin learns from `--parent-token`, for the seeded super user. */
const EXTRA_TOKEN = "matrix-bin-parent-token";

/**
 * Two ports that were free a moment ago: the bin is told which ports to take, as a user would. Both
 * are held open together, so the system cannot hand out the same port twice.
 */
async function freePorts(): Promise<[number, number]> {
  const servers = [createServer(), createServer()];
  try {
    const ports = await Promise.all(
      servers.map(
        (server) =>
          new Promise<number>((resolve, reject) => {
            server.once("error", reject);
            server.listen(0, "127.0.0.1", () => {
              const address = server.address();
              typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"));
            });
          }),
      ),
    );
    return [ports[0] as number, ports[1] as number];
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** Runs the installed bin on `runtime` (first on PATH, as its `#!/usr/bin/env node` line finds it). */
export function sandboxBin(consumer: () => Promise<string>, runtime: Runtime): SandboxProvider {
  return async <T>(task: (run: SandboxRun) => Promise<T>): Promise<T> => {
    const dir = await consumer();
    const node = binaryOf(runtime);
    const [mainPort, legacyPort] = await freePorts();
    const { seed } = createSandboxApps();
    const superUser = seed.parentTokens.find((p) => p.roles.includes("SUPER_USER"));
    if (!superUser) {
      throw new Error("the sandbox seeds no super user's parent token");
    }
    const env = plainEnv();
    env.PATH = `${dirname(node)}:${env.PATH ?? ""}`;
    const bin = startProcess(
      join(dir, "node_modules", ".bin", "engage-voice-sandbox"),
      [
        "--port-main",
        String(mainPort),
        "--port-legacy",
        String(legacyPort),
        "--control",
        "--token-lifetime",
        String(LIFETIME_SECONDS),
        "--parent-token",
        `${EXTRA_TOKEN}=${superUser.userId}`,
      ],
      { cwd: dir, env },
    );
    let result: T;
    try {
      await bin.waitForOutput(/Ctrl-C stops the sandbox/, 30_000);
      const mainUrl = `http://127.0.0.1:${mainPort}`;
      const legacyUrl = `http://127.0.0.1:${legacyPort}`;
      for (const url of [mainUrl, legacyUrl]) {
        if (!bin.output.stdout.includes(url)) {
          throw new Error(`the bin does not say it listens on ${url}`);
        }
      }
      const run = sandboxRun(seed, mainUrl, legacyUrl, LIFETIME_SECONDS * 1000);
      result = await task({ ...run, config: { ...run.config, rcAccessToken: EXTRA_TOKEN } });
    } catch (error) {
      await bin.stop("SIGKILL", 10_000).catch(() => undefined);
      // stderr only: stdout lists the seeded credentials.
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}\n${tail(bin.output.stderr)}`,
      );
    }
    const code = await bin.stop("SIGTERM", 15_000);
    if (code !== 0) {
      throw new Error(`engage-voice-sandbox exited with ${code} on SIGTERM\n${tail(bin.output.stderr)}`);
    }
    return result;
  };
}
