// What the CLI finds in its config folder, put there by someone else: a profile key that is a path,
// folders that others can write. No host is needed: `profiles` reads the folder only.
import { chmod, mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliIn, tempHome, tokenPath } from "./helpers.js";

const ORIGIN = "https://engage.ringcentral.com";
const session = JSON.stringify({
  accessToken: "not-a-real-token",
  expiresAt: Date.now() + 60_000,
  obtainedAt: Date.now(),
  sequence: 1,
  agentDetails: [{ agentId: 1, accountId: "1", username: "someone.else@example.com" }],
});

describe("names read from config.json", () => {
  it("a profile key that is a path is not followed out of the config folder: ignored, with a warning", async () => {
    const home = await tempHome();
    const dir = join(home, ".config", "engage-voice");
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const hosts = { baseUrl: ORIGIN, legacyBaseUrl: "https://portal.vacd.biz" };
    await writeFile(join(dir, "config.json"), JSON.stringify({ profiles: { "../../../outside": hosts } }));
    // The session such a name would read: outside the config folder.
    const outside = tokenPath(home, "../../../outside", ORIGIN);
    expect(outside.startsWith(dir)).toBe(false);
    await mkdir(join(outside, ".."), { recursive: true });
    await writeFile(outside, session);

    const { code, stdout, stderr } = await cliIn(home)(["profiles", "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([]);
    expect(stderr).toMatch(
      /config\.json holds 1 profile name\(s\) that are not valid profile names: ignored/,
    );
  });
});

describe("folders others can write", () => {
  it("the user's own config and token folders are tightened before a session is read", async () => {
    const home = await tempHome();
    const dir = join(home, ".config", "engage-voice");
    const file = tokenPath(home, "default", ORIGIN);
    await mkdir(join(file, ".."), { recursive: true });
    await writeFile(file, session, { mode: 0o600 });
    const folders = [dir, join(dir, "tokens"), join(dir, "tokens", "default")];
    for (const folder of folders) {
      await chmod(folder, 0o777);
    }
    const { code } = await cliIn(home)(["profiles", "--json"]);
    expect(code).toBe(0);
    for (const folder of folders) {
      expect((await stat(folder)).mode & 0o022).toBe(0);
    }
  });
});
