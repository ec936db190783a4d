// On a terminal: tables by default, prompts that do not echo, the delete confirmation and the
// spinner. The bin runs under a pseudo-terminal made by util-linux `script`; each answer is typed
// only once its prompt has appeared, and a wait that must show the spinner is held open until the
// spinner has appeared, so nothing depends on timing.
import { execFileSync, spawn } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { callDefaults } from "@engage-voice/client";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatedProxy, gatedProxy } from "./gated-proxy.js";
import { API_TOKEN, BIN, cliIn, tempHome, tokenPath, transcript } from "./helpers.js";
import { expectNoSecrets } from "./scan.js";

const hasScript = (() => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return process.platform === "linux";
  } catch {
    return false;
  }
})();

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

interface PtyResult {
  code: number | null;
  output: string;
}

/**
 * Runs the bin on a pseudo-terminal; each `[prompt, answer]`, in turn, types `answer` (or calls it)
 * once `prompt` was printed.
 */
function onTerminal(
  home: string,
  args: string[],
  answers: [prompt: string | RegExp, answer: string | (() => void)][] = [],
): Promise<PtyResult> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, BIN, ...args].map(quote).join(" ");
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        XDG_CONFIG_HOME: join(home, ".config"),
        SHELL: "/bin/sh",
        TERM: "xterm",
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    const pending = [...answers];
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const next = pending[0];
      if (next && (typeof next[0] === "string" ? output.includes(next[0]) : next[0].test(output))) {
        pending.shift();
        if (typeof next[1] === "string") {
          child.stdin.write(next[1]);
        } else {
          next[1]();
        }
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    // An answer typed after the program has exited breaks the pipe: the exit code tells the test.
    child.stdin.on("error", () => {});
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      transcript.push({ args, stdout: output, stderr: "" });
      resolve({ code, output });
    });
  });
}

let sandbox: RunningSandbox;
/** The contact-center host as the profile knows it: the sandbox's, behind a proxy the tests can hold. */
let main: GatedProxy;
let home: string;

beforeAll(async () => {
  sandbox = await startSandbox({ faults: { enabled: true } });
  main = await gatedProxy(sandbox.mainUrl);
  home = await tempHome();
});

afterAll(async () => {
  await main?.close();
  await sandbox?.stop();
  if (hasScript) {
    expectNoSecrets(sandbox);
  }
});

const ada = () => sandbox.seed.parentTokens.find((p) => p.token.endsWith("-ada"))?.token as string;

describe.skipIf(!hasScript)("on a terminal", () => {
  it("login asks for the parent token without echoing it", async () => {
    const { code, output } = await onTerminal(
      home,
      ["login", "--base-url", main.url, "--legacy-base-url", sandbox.legacyUrl],
      [["RingCentral access token: ", `${ada()}\r`]],
    );
    expect(code).toBe(0);
    expect(output).toContain("Logged in to");
    expect(output).not.toContain(ada());
  });

  it("tables are the default, and a long wait shows a spinner on stderr", async () => {
    const spinner = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Waiting for 127\.0\.0\.1:\d+…/;
    // The answer is held until the spinner shows: a run without one never ends (the pty's kill timer).
    const release = main.hold("/voice/api/v1/admin/accounts");
    const { code, output } = await onTerminal(home, ["accounts"], [[spinner, release]]).finally(release);
    expect(code).toBe(0);
    expect(output).toMatch(spinner);
    expect(output).toMatch(/ACCOUNT ID\s+NAME/);
    // The table comes after the spinner, which was wiped first.
    expect(output.search(/ACCOUNT ID/)).toBeGreaterThan(output.search(spinner));
    expect(output).toContain("\r\x1b[2K");
    const json = await onTerminal(home, ["accounts", "--json"]);
    expect(JSON.parse(json.output.replace(/\r/g, ""))).toHaveLength(3);
  });

  it("api indents a JSON answer on a terminal (in a pipe it is one line: api.test.ts)", async () => {
    const { code, output } = await onTerminal(home, ["api", "GET", "/voice/api/v1/admin/accounts"]);
    expect(code).toBe(0);
    const text = output.replace(/\r/g, "");
    expect(text).toMatch(/^\[\n {2}\{\n {4}"accountId": /);
    expect(JSON.parse(text)).toHaveLength(3);
  });

  // No race: the spinner's 0.4 s timer and the 2 s wait are timers of the same process, started in
  // that order, and Node runs due timers in order of their expiry, however late it gets to them.
  it("a rate limit's Retry-After is waited out with a spinner that says so", async () => {
    sandbox.faults.next({ kind: "rate-limit", retryAfterSeconds: 2, path: "/voice/api/v1/admin/users" });
    const { code, output } = await onTerminal(home, ["users", "--flatten"]);
    expect(code).toBe(0);
    // The client waits the Retry-After in full, plus up to callDefaults.retryAfterJitterMs at random.
    const longest = Math.ceil((2_000 + callDefaults.retryAfterJitterMs) / 1000);
    const seconds = Array.from({ length: longest - 1 }, (_, i) => i + 2).join("|");
    expect(output).toMatch(
      new RegExp(`[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Waiting (?:${seconds}) s before trying again \\(rate limit or retry\\)…`),
    );
    expect(output).toMatch(/USER ID\s+USER NAME/);
  });

  it("a direct login asks for the password without echoing it", async () => {
    const { username, password, platformId } = sandbox.seed
      .legacyLogins[0] as (typeof sandbox.seed.legacyLogins)[0];
    const { code, output } = await onTerminal(
      home,
      ["api-tokens", "list", "--username", username, "--platform-id", platformId],
      [["Password: ", `${password}\r`]],
    );
    expect(code).toBe(0);
    expect(output).not.toContain(password);
  });

  it("delete asks for confirmation: no keeps the token (exit 2), yes deletes it", async () => {
    const created = (await cliIn(home)(["api-tokens", "create"])).stdout.trim();
    expect(created).toMatch(API_TOKEN);
    const masked = `sbx01:…${created.slice(-4)}`;
    const declined = await onTerminal(home, ["api-tokens", "delete", created], [["[y/N]", "n\r"]]);
    expect(declined.code).toBe(2);
    expect(declined.output).toContain(
      `Delete the permanent API token ${masked} on ${sandbox.legacyUrl}? [y/N]`,
    );
    expect(declined.output).toContain("Cancelled: nothing was deleted");
    const accepted = await onTerminal(home, ["api-tokens", "delete", created], [["[y/N]", "y\r"]]);
    expect(accepted.code).toBe(0);
    expect(accepted.output).toContain(`Deleted the permanent API token ${masked}.`);
    expect(JSON.parse((await cliIn(home)(["api-tokens", "list"])).stdout)).toEqual([]);
  });

  it("the users tree is drawn with lines on a terminal", async () => {
    const { code, output } = await onTerminal(home, ["users"]);
    expect(code).toBe(0);
    expect(output).toMatch(/^1001 .* Ada Example /m);
    expect(output).toMatch(/ [├└]─ Sam Supervisor /);
    expect(output).toMatch(/ (│ {2}| {3})[├└]─ Rob Agent /);
  });

  it("a lock left on the session (a renewal stopped by Ctrl-C) is awaited with a spinner that says so", async () => {
    // A lock as fresh as a live holder's: the login waits for it until it goes. The test removes it
    // once the spinner shows, so a run without the spinner waits until the lock is stale, and fails.
    const lock = `${tokenPath(home, "default", main.url)}.lock`;
    await writeFile(lock, "a-holder-stopped-by-ctrl-c");
    const spinner = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Waiting for the lock on the session \(held by another engage-voice/;
    const { code, output } = await onTerminal(
      home,
      ["login", "--base-url", main.url, "--legacy-base-url", sandbox.legacyUrl],
      [
        ["RingCentral access token: ", `${ada()}\r`],
        [spinner, () => void rm(lock, { force: true })],
      ],
    ).finally(() => rm(lock, { force: true }));
    expect(code).toBe(0);
    expect(output).toMatch(spinner);
    expect(output).toContain("Logged in to");
  });
});
