// Several processes share one token file (`fileStore`, with its lock): when the access token has
// expired and all of them need a token at the same moment, exactly one refresh is made, nobody
// presents a spent refresh token, and every process gets the same new access token. Real time,
// real processes, the real sandbox on 127.0.0.1.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createTokenManager } from "@engage-voice/auth";
import { fileStore } from "@engage-voice/auth/node";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { expectOneRefreshForAllProcesses, expired } from "@engage-voice/test-kit";
import { countingFetch } from "@engage-voice/test-kit/child";
import { afterAll, beforeAll, expect, it, onTestFinished } from "vitest";

const child = new URL("./fixtures/shared-store-child.mjs", import.meta.url).pathname;
const holder = new URL("./fixtures/lock-holder-child.mjs", import.meta.url).pathname;
const frozenHolder = new URL("./fixtures/frozen-holder-child.mjs", import.meta.url).pathname;
const parentToken = "sandbox-rc-token-ada";
let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenLifetimeMs: 60_000 });
  dir = await mkdtemp(join(tmpdir(), "ev-shared-store-"));
});
afterAll(async () => {
  await sandbox?.stop();
  await rm(dir, { recursive: true, force: true });
});

it("four processes on one token file make one refresh across an expiry", { timeout: 120_000 }, async () => {
  const path = join(dir, "tokens.json");
  const first = createTokenManager({
    baseUrl: sandbox.mainUrl,
    rcAccessToken: parentToken,
    tenant: "acme",
    store: fileStore(path),
  });
  await expectOneRefreshForAllProcesses({
    child,
    args: [sandbox.mainUrl, path, parentToken],
    initial: await first.getAccessToken(),
    mainUrl: sandbox.mainUrl,
    expire: async () => writeFile(path, expired(await readFile(path, "utf8"))),
  });
});

it("after a lock holder was killed, eight processes take over its lock and make one refresh", {
  timeout: 120_000,
}, async () => {
  const path = join(dir, "killed-holder.json");
  const first = createTokenManager({
    baseUrl: sandbox.mainUrl,
    rcAccessToken: parentToken,
    tenant: "acme",
    store: fileStore(path),
  });
  const initial = await first.getAccessToken();
  const held = spawn(process.execPath, [holder, path], { stdio: ["ignore", "pipe", "inherit"] });
  onTestFinished(() => {
    held.kill("SIGKILL"); // a holder never lets go of its own accord
  });
  const [line] = (await once(held.stdout, "data")) as [Buffer];
  expect(String(line)).toContain("holding");
  held.kill("SIGKILL");
  await once(held, "exit");
  expect(await readFile(`${path}.lock`, "utf8")).toMatch(/^[0-9a-f]{32}$/); // its lock stays behind
  // Older than staleLockMs (15 s) at once, as if the others had waited that long.
  const old = new Date(Date.now() - 60_000);
  await utimes(`${path}.lock`, old, old);
  // One refresh and no rejected one in all: the stored refresh token was presented exactly once.
  await expectOneRefreshForAllProcesses(
    {
      child,
      args: [sandbox.mainUrl, path, parentToken],
      initial,
      mainUrl: sandbox.mainUrl,
      expire: async () => writeFile(path, expired(await readFile(path, "utf8"))),
    },
    8,
  );
});

it("after a holder died inside the lock, six processes renewing at once present the stored refresh token once", {
  timeout: 300_000,
}, async () => {
  const path = join(dir, "dead-holder.json");
  // One exchange for all trials (the sandbox limits them): each trial starts from the last one's set.
  await createTokenManager({
    baseUrl: sandbox.mainUrl,
    rcAccessToken: parentToken,
    tenant: "acme",
    store: fileStore(path),
  }).getAccessToken();
  for (let trial = 0; trial < 5; trial++) {
    const initial = (JSON.parse(await readFile(path, "utf8")) as { accessToken: string }).accessToken;
    // The lock a killed renewal left, older than staleLockMs (15 s).
    await writeFile(`${path}.lock`, "a-holder-that-was-killed");
    const old = new Date(Date.now() - 60_000);
    await utimes(`${path}.lock`, old, old);
    // One refresh and none rejected across the six: the stored refresh token was presented once.
    await expectOneRefreshForAllProcesses(
      {
        child,
        args: [sandbox.mainUrl, path, parentToken],
        initial,
        mainUrl: sandbox.mainUrl,
        expire: async () => writeFile(path, expired(await readFile(path, "utf8"))),
      },
      6,
    );
  }
});

it("a holder stopped (SIGSTOP) after it read the set, past staleLockMs: its successor refreshes, and on SIGCONT it presents nothing", {
  timeout: 120_000,
}, async () => {
  const path = join(dir, "frozen-holder.json");
  await createTokenManager({
    baseUrl: sandbox.mainUrl,
    rcAccessToken: parentToken,
    tenant: "acme",
    store: fileStore(path),
  }).getAccessToken();
  await writeFile(path, expired(await readFile(path, "utf8")));

  const held = spawn(process.execPath, [frozenHolder, sandbox.mainUrl, path, parentToken], {
    stdio: ["pipe", "pipe", "inherit"],
    timeout: 60_000,
  });
  held.stdin.on("error", () => {}); // a child that died early: its exit code says so, not a broken pipe
  const exited = once(held, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const lines: string[] = [];
  const read = new Promise<void>((resolve) => {
    createInterface({ input: held.stdout }).on("line", (line) => {
      lines.push(line);
      if (line === "read") {
        resolve();
      }
    });
  });
  try {
    await Promise.race([read, exited]);
    expect(lines).toEqual(["read"]);
    held.kill("SIGSTOP");
    // Its lock, older than staleLockMs (15 s) at once, as if the holder had been stopped that long.
    const old = new Date(Date.now() - 60_000);
    await utimes(`${path}.lock`, old, old);

    const successor = countingFetch();
    const renewed = await createTokenManager({
      baseUrl: sandbox.mainUrl,
      rcAccessToken: parentToken,
      fetch: successor.fetch,
      tenant: "acme",
      store: fileStore(path),
      logger: {},
    }).getAccessToken();
    expect(successor.calls).toEqual({ exchange: 0, refresh: 1, rejected: 0 });

    held.kill("SIGCONT");
    if (held.exitCode === null && held.signalCode === null) {
      held.stdin.end("go\n");
    }
    const [code] = await exited;
    expect(code).toBe(0);
    const result = JSON.parse(lines.at(-1) ?? "") as { calls: Record<string, number>; accessToken: string };
    expect(result.calls).toEqual({ exchange: 0, refresh: 0, rejected: 0 });
    expect(result.accessToken).toBe(renewed);
  } finally {
    if (held.exitCode === null && held.signalCode === null) {
      held.kill("SIGCONT");
      held.kill("SIGKILL");
    }
  }
});
