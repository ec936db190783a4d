// Where the sessions live on each platform, and how hosts become file names. Pure functions of the
// source, no process needed.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkOrigin, configDir, hostKey, tokenFile } from "../src/config.js";

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

  it("a base URL is an origin; a trailing slash is fine, a path, query or password is not", () => {
    expect(checkOrigin("https://engage.ringcentral.com/", "base-url")).toBe("https://engage.ringcentral.com");
    for (const bad of [
      "https://a.example/api",
      "https://a.example/?x=1",
      "https://u:p@a.example",
      "ftp://a.example",
    ]) {
      expect(() => checkOrigin(bad, "base-url")).toThrow(/--base-url must be an origin/);
    }
    expect(() => checkOrigin("nope", "base-url")).toThrow(/not a URL/);
  });
});
