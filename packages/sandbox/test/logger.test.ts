// The sandbox's own failures: reported to the injected logger, to stderr from the Node entry only,
// and never with a token of the path or the error's message.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSandboxApps, SandboxOptionsError } from "../src/app.js";
import { call, form, manualClock, openServer, recordingLogger } from "./helpers.js";

const API_TOKEN = "sbx01:3f2c9a7e-1b4d-4c8e-9a6f-0d1e2f3a4b5c";

/** A clock that throws once when armed: an unexpected failure inside whatever request reads it next. */
function failingClock() {
  const clock = manualClock();
  let armed = false;
  return {
    arm: () => {
      armed = true;
    },
    now: () => {
      if (armed) {
        armed = false;
        throw new TypeError(`the clock broke while reading ${API_TOKEN}`);
      }
      return clock.now();
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the logger option", () => {
  it("receives an unexpected failure by path template and stack, never the token or the message", async () => {
    const clock = failingClock();
    const { lines, logger } = recordingLogger();
    const { legacy } = createSandboxApps({ now: clock.now, logger });
    clock.arm();
    const answer = await legacy.request(`/voice/api/v1/admin/token/${API_TOKEN}`, { method: "DELETE" });
    expect(answer.status).toBe(500);
    expect(lines).toHaveLength(1);
    const [line] = lines as [string];
    expect(line).toMatch(
      /^error sandbox: unexpected TypeError on DELETE \/voice\/api\/v1\/admin\/token\/\{apiToken\}\n\s+at /,
    );
    expect(line).not.toContain("sbx01:");
    expect(line).not.toContain("the clock broke");
  });

  it("defaults to writing nowhere in the runtime-neutral apps", async () => {
    const stderr = vi.spyOn(process.stderr, "write");
    const consoleError = vi.spyOn(console, "error");
    const clock = failingClock();
    const { main } = createSandboxApps({ now: clock.now });
    clock.arm();
    const answer = await main.request(
      "/api/auth/token/refresh",
      form({ refresh_token: "r", rcTokenType: "Bearer" }),
    );
    expect(answer.status).toBe(500);
    expect(stderr).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("defaults to stderr in the Node entry", async () => {
    const clock = failingClock();
    const { mainUrl } = await openServer({ now: clock.now });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    clock.arm();
    const answer = await call(mainUrl, "/voice/api/v1/admin/accounts");
    expect(answer.status).toBe(500);
    expect(stderr).toHaveBeenCalledOnce();
    expect(String(stderr.mock.calls[0]?.[0])).toMatch(
      /^sandbox: unexpected TypeError on GET \/voice\/api\/v1\/admin\/accounts\n/,
    );
  });

  it.each([null, "stderr", { error: "yes" }])(
    "rejects the logger %j with a SandboxOptionsError",
    (logger) => {
      expect(() => createSandboxApps({ logger: logger as never })).toThrow(SandboxOptionsError);
    },
  );
});
