// The sandbox's command line owns its process, so @hono/node-server's lightweight Request and
// Response may replace the globals there (overrideGlobalObjects): run as a real process, it answers
// as in process, headers included. startSandbox() leaves a shared process's globals as they were.
import { fileURLToPath } from "node:url";
import { startProcess } from "@engage-voice/test-kit/processes";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../src/node.js";
import { bearer, call, exchange } from "./helpers.js";

const BIN = fileURLToPath(new URL("../bin/engage-voice-sandbox.js", import.meta.url));
const ACCOUNTS = "/voice/api/v1/admin/accounts";

describe("the sandbox's own process", () => {
  it("answers an authorised GET with the JSON, Date and Vary of the in-process apps", async () => {
    const sandbox = startProcess(process.execPath, [BIN]);
    try {
      const [, mainUrl] = await sandbox.waitForOutput(/contact-center host\s+\S+\s+(http:\/\/\S+)/, 30_000);
      const { accessToken } = (await exchange(mainUrl as string)).json;
      const answer = await call(mainUrl as string, ACCOUNTS, bearer(accessToken));
      expect(answer.status).toBe(200);
      expect(Array.isArray(answer.json)).toBe(true);
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      expect(answer.headers.get("vary")).toBe("Origin");
      expect(answer.headers.get("date")).toMatch(/ GMT$/);
      expect(Number(answer.headers.get("content-length"))).toBe(Buffer.byteLength(answer.body));
    } finally {
      await sandbox.stop("SIGTERM", 10_000);
    }
  });

  it("startSandbox() leaves the globals of a process it shares as they were", async () => {
    const { Request, Response } = globalThis;
    const sandbox = await startSandbox();
    try {
      expect((await call(sandbox.mainUrl, ACCOUNTS)).status).toBe(401);
      expect(globalThis.Request).toBe(Request);
      expect(globalThis.Response).toBe(Response);
    } finally {
      await sandbox.stop();
    }
  });
});
