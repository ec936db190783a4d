// Where the sessions live on each platform, and how hosts become file names. Pure functions of the
// source, no process needed.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { defaultBaseUrls } from "@engage-voice/client/internal";
import { describe, expect, it } from "vitest";
import {
  checkOrigin,
  checkProfile,
  configDir,
  DEFAULT_BASE_URL,
  DEFAULT_LEGACY_BASE_URL,
  folderVerdict,
  hostKey,
  readConfig,
  tokenFile,
} from "../src/config.js";
import { GLOBAL_OPTIONS } from "../src/options.js";
import { jsonText, printable } from "../src/terminal.js";
import { tempHome } from "./helpers.js";

describe("the config folder", () => {
  const home = "/home/ada";
  it.each([
    ["linux", {}, join(home, ".config", "engage-voice")],
    ["linux", { XDG_CONFIG_HOME: "/xdg" }, join("/xdg", "engage-voice")],
    ["linux", { XDG_CONFIG_HOME: "relative/xdg" }, join(home, ".config", "engage-voice")],
    ["darwin", {}, join(home, "Library", "Application Support", "engage-voice")],
    ["darwin", { XDG_CONFIG_HOME: "/xdg" }, join("/xdg", "engage-voice")],
    ["win32", { APPDATA: "/appdata" }, join("/appdata", "engage-voice")],
    ["win32", {}, join(home, "AppData", "Roaming", "engage-voice")],
    ["linux", { ENGAGE_VOICE_CONFIG_DIR: "/etc/ev", XDG_CONFIG_HOME: "/xdg" }, "/etc/ev"],
  ] as const)("%s with %o is %s", (platform, env, expected) => {
    expect(configDir({ platform, env, home })).toBe(expected);
  });

  it("a relative ENGAGE_VOICE_CONFIG_DIR is a usage error naming the variable, not ignored", () => {
    for (const relative of ["ev", "./ev", "../ev"]) {
      expect(() =>
        configDir({ platform: "linux", env: { ENGAGE_VOICE_CONFIG_DIR: relative }, home }),
      ).toThrow(/^ENGAGE_VOICE_CONFIG_DIR must be an absolute path/);
    }
  });
});

describe("profile names", () => {
  it.each(["CON", "con", "PRN", "AUX", "NUL", "COM0", "com9", "LPT1", "nul.txt", "CON.json", "a."])(
    "%s is refused: Windows cannot make its folder",
    (name) => {
      expect(() => checkProfile(name)).toThrow(/cannot be a device name of Windows/);
    },
  );

  it.each(["console", "com10", "lpt", "connie.dev", "default", "p1"])("%s is a name", (name) => {
    expect(checkProfile(name)).toBe(name);
  });

  it("names read from config.json are checked as --profile is: a path or a device name is ignored", async () => {
    const dir = join(await tempHome(), "engage-voice");
    await mkdir(dir, { recursive: true });
    const hosts = { baseUrl: "https://a.example", legacyBaseUrl: "https://b.example" };
    await writeFile(
      join(dir, "config.json"),
      JSON.stringify({ profiles: { "../../../outside": hosts, CON: hosts, "..": hosts, ok: hosts } }),
    );
    const config = await readConfig(dir);
    expect(Object.keys(config.profiles)).toEqual(["ok"]);
    expect(config.ignored).toBe(3);
  });
});

describe("folders others can write", () => {
  it("are tightened when they are the user's own, refused when they are not (as ssh does)", () => {
    expect(folderVerdict(0o700, 1000, 1000)).toBe("keep");
    expect(folderVerdict(0o755, 1000, 1000)).toBe("keep");
    expect(folderVerdict(0o777, 1000, 1000)).toEqual({ tighten: 0o755 });
    expect(folderVerdict(0o770, 1000, 1000)).toEqual({ tighten: 0o750 });
    expect(folderVerdict(0o1777, 0, 1000)).toBe("refuse");
    expect(folderVerdict(0o775, 0, 1000)).toBe("refuse");
    expect(folderVerdict(0o755, 0, 1000)).toBe("keep");
  });
});

describe("text from the API", () => {
  // Labels, not the text: a test report is printed on a terminal too.
  const hostile: [string, string][] = [
    ["OSC 52, a clipboard write", "\x1b]52;c;ZWNobyBvd25lZA==\x07"],
    ["OSC 0, a window title", "\x1b]0;title\x07"],
    ["CSI, a cleared screen", "\x1b[2J"],
    ["OSC 8, a hidden link", "\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\"],
    ["C1 CSI", "\u009b2J"],
    ["bidi controls", "\u202e\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c"],
    ["line and paragraph separators, DEL", "\u2028\u2029\x7f"],
  ];
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  const unprintable = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

  it.each(hostile)("printable() leaves nothing a terminal acts on: %s", (_, text) => {
    expect(printable(`a${text}b`)).not.toMatch(unprintable);
    expect(printable(`a${text}b`)).toMatch(/^a.*b$/);
  });

  it.each(hostile)("jsonText() escapes %s and parses back to the same", (_, text) => {
    const written = jsonText({ accountName: text });
    // Its own line breaks are JSON's layout; every other one is escaped.
    expect(written.replaceAll("\n", "")).not.toMatch(unprintable);
    expect(JSON.parse(written)).toEqual({ accountName: text });
  });
});

describe("hosts and files", () => {
  it("one token file per profile and host, a safe name on every platform", () => {
    expect(hostKey("https://engage.ringcentral.com")).toBe("https_engage.ringcentral.com");
    expect(hostKey("http://127.0.0.1:4010")).toBe("http_127.0.0.1_4010");
    expect(hostKey("http://[::1]:4010")).toBe("http____1__4010");
    expect(tokenFile("/c", "ci", "https://ringcx.ringcentral.com")).toBe(
      join("/c", "tokens", "ci", "https_ringcx.ringcentral.com.json"),
    );
  });

  it.each([
    ["https://a.example/api", "--base-url must be an origin without a path, query or fragment"],
    ["https://a.example/?x=1", "--base-url must be an origin without a path, query or fragment"],
    ["https://a.example/?", "--base-url must be an origin without a path, query or fragment"],
    ["https://u:p@a.example", "--base-url must not contain a username or password"],
    ["ftp://a.example", "--base-url must use https: or http:"],
    ["nope", "--base-url must be an absolute URL"],
  ])("--base-url %j is refused under the client's origin rule: %s", (bad, expected) => {
    expect(checkOrigin("https://engage.ringcentral.com/", "base-url")).toBe("https://engage.ringcentral.com");
    const message = (() => {
      try {
        checkOrigin(bad, "base-url");
      } catch (error) {
        return (error as Error).message;
      }
      return "accepted";
    })();
    expect(message).toContain(expected);
    expect(message).not.toContain("u:p");
  });
});

describe("the default hosts", () => {
  it("are the client's defaultBaseUrls, and --help names them (the parser imports no package)", () => {
    expect([DEFAULT_BASE_URL, DEFAULT_LEGACY_BASE_URL]).toEqual([
      defaultBaseUrls.main,
      defaultBaseUrls.legacy,
    ]);
    expect(GLOBAL_OPTIONS["base-url"].description).toContain(`else ${defaultBaseUrls.main};`);
    expect(GLOBAL_OPTIONS["legacy-base-url"].description).toContain(`else ${defaultBaseUrls.legacy};`);
  });
});
