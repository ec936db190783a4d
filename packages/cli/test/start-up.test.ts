// `$(engage-voice token)` runs in scripts, once per call: with a valid stored session it sends nothing
// and writes nothing, so it must not pay for what only a request, a write or a question needs: Node's
// fetch implementation (undici, the largest), node:crypto (temporary file names, lock tokens) and
// node:readline. A preload reports which of them the process loaded.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliIn, tempHome, tokenPath } from "./helpers.js";

const WATCHED = ["internal/deps/undici/undici", "crypto", "readline"].map((name) => `NativeModule ${name}`);

/** A preload that prints, as the process exits, which of the watched modules were loaded. */
async function moduleProbe(home: string): Promise<string> {
  const file = join(home, "module-probe.mjs");
  await writeFile(
    file,
    `process.on("exit", () => {
  const list = process.moduleLoadList;
  const loaded = Array.isArray(list) ? ${JSON.stringify(WATCHED)}.filter((name) => list.includes(name)) : ["no module list"];
  process.stderr.write(\`loaded: \${loaded.join(", ") || "none"}\\n\`);
});
`,
  );
  return file;
}

describe("engage-voice token with a valid stored session", () => {
  it("prints the stored token without loading Node's fetch implementation, node:crypto or node:readline", async () => {
    const home = await tempHome();
    const file = tokenPath(home, "default", "https://engage.ringcentral.com");
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const now = Date.now();
    await writeFile(
      file,
      JSON.stringify({
        accessToken: "stored-access",
        expiresAt: now + 86_400_000,
        obtainedAt: now,
        sequence: 1,
        // A session is the profile's: `login` stamps it with the profile as its tenant.
        tenant: "default",
      }),
      { mode: 0o600 },
    );
    const probe = await moduleProbe(home);
    const result = await cliIn(home)(["token"], { env: { NODE_OPTIONS: `--import=${probe}` } });
    expect(result).toEqual({ code: 0, stdout: "stored-access\n", stderr: "loaded: none\n" });
  });

  it("(the probe sees the watched modules when a process does load them)", async () => {
    const home = await tempHome();
    const probe = await moduleProbe(home);
    const result = await cliIn(home)(["--version"], {
      env: {
        NODE_OPTIONS: `--import=${probe} --import=data:text/javascript,globalThis.Request;process.getBuiltinModule('crypto')`,
      },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("loaded: NativeModule internal/deps/undici/undici, NativeModule crypto\n");
  });
});
