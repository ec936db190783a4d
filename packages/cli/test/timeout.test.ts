// A host that takes the connection and never answers: the command ends at its deadline (--timeout),
// exit 1, with a line that names the fix, instead of waiting until the operating system gives up.
import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatedProxy, gatedProxy } from "./gated-proxy.js";
import { cliIn, tempHome } from "./helpers.js";

const ACCOUNTS = "/voice/api/v1/admin/accounts";

let sandbox: RunningSandbox;
let main: GatedProxy;

beforeAll(async () => {
  sandbox = await startSandbox();
  main = await gatedProxy(sandbox.mainUrl);
});

afterAll(async () => {
  await main?.close();
  await sandbox?.stop();
});

/** A TCP server that accepts every connection, reads what is sent and never writes a byte. */
async function silentHost(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.resume();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => accepted,
    close: async () => {
      for (const socket of sockets) {
        socket.destroy();
      }
      server.close();
      await once(server, "close");
    },
  };
}

const parent = () => sandbox.seed.parentTokens[0]?.token as string;

describe("--timeout", () => {
  it("ends a call the host never answers, exit 1, naming the flag", async () => {
    const cli = cliIn(await tempHome());
    const hosts = ["--base-url", main.url, "--legacy-base-url", sandbox.legacyUrl];
    expect((await cli(["login", "--rc-token-stdin", ...hosts], { input: parent() })).code).toBe(0);
    main.answer(ACCOUNTS, () => {}); // the connection is taken, nothing is ever written
    const { code, stdout, stderr } = await cli(["accounts", "--timeout", "1"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    // On a machine busy enough that starting the command takes the whole second, the deadline passes
    // before the request is sent: then the command, not the host, is named (seen once at a load of 33).
    expect(stderr).toMatch(
      /^engage-voice: (http:\/\/127\.0\.0\.1:\d+ did not answer|accounts did not finish) within 1 s: .*--timeout SECONDS\n$/,
    );
  });

  it("is one deadline over the whole command: login tries the exchange once and ends at it", async () => {
    const silent = await silentHost();
    try {
      const cli = cliIn(await tempHome());
      // Two seconds per try used to be two seconds per try: three tries and their backoff (about 8 s).
      const { code, stdout, stderr } = await cli(
        ["login", "--rc-token-stdin", "--base-url", silent.url, "--timeout", "2"],
        { input: parent() },
      );
      expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
      expect(stderr).toBe(
        `engage-voice: ${silent.url} did not answer within 2 s: try again, or give it longer with --timeout SECONDS\n`,
      );
      // Counted, not timed: a second connection is a second try after the deadline had passed. The
      // process ended by itself (the helper kills it at 30 s, code null), with the host still silent.
      expect(silent.connections()).toBe(1);
    } finally {
      await silent.close();
    }
  });

  it("stands still while the command waits for its input, which a person may be typing", async () => {
    const cli = cliIn(await tempHome());
    const hosts = ["--base-url", sandbox.mainUrl, "--legacy-base-url", sandbox.legacyUrl];
    // The token comes three deadlines late: a deadline that ran meanwhile would have ended the login.
    const late = new Promise<string>((resolve) => setTimeout(() => resolve(parent()), 3_000));
    const { code, stderr } = await cli(["login", "--rc-token-stdin", "--timeout", "1", ...hosts], {
      input: late,
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  });

  it.each([["abc"], ["0"], ["-1"], ["3601"]])("refuses %s as a usage error (exit 2)", async (value) => {
    const { code, stderr } = await cliIn(await tempHome())(["accounts", `--timeout=${value}`]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--timeout \(or ENGAGE_VOICE_TIMEOUT\) must be a number of seconds/);
  });
});
