// Every x-codeSamples entry of the bundled document works as printed: the curl ones with the real curl
// binary, the TypeScript ones type-checked and run against the built client and auth packages, the
// Python ones with python3 and requests, the Java ones compiled with javac and run with `java`, all on
// the sandbox with its seeded credentials in the placeholders. Each answer must carry the operation's
// documented success status. Needs the packages built (`turbo run test` does it first).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { operationTable } from "@engage-voice/client";
import { createSandboxApps, type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  credentials,
  javaSamples,
  onSandbox,
  runCurl,
  runPython,
  runTypeScript,
  typecheck,
  variablesIn,
  writeSamples,
} from "./run-samples.js";

type Sample = { lang: string; label: string; source: string };
type Operation = {
  operationId: string;
  servers?: unknown[];
  responses: Record<string, unknown>;
  parameters?: { $ref?: string; name?: string }[];
  "x-codeSamples"?: Sample[];
};

const require = createRequire(import.meta.url);
const document = JSON.parse(await readFile(require.resolve("@engage-voice/spec/openapi.json"), "utf8"));
const operations: Operation[] = Object.values(document.paths).flatMap((item) =>
  Object.values(item as Record<string, Operation>).filter((op) => op.operationId),
);
const success = (op: Operation) =>
  Math.min(
    ...Object.keys(op.responses)
      .map(Number)
      .filter((s) => s < 300),
  );
const host = (op: Operation) => (op.servers ? "legacy" : "main");
const LANGUAGES = ["curl", "TypeScript", "Python", "Java"];
const sample = (op: Operation, label: string) => {
  const found = op["x-codeSamples"]?.find((s) => s.label === label);
  if (!found) {
    throw new Error(`${op.operationId} has no ${label} sample`);
  }
  return found.source;
};

// The document's own example password holds every character that needs percent-encoding (space, +, =,
// &): the sandbox accepts it too, so that the legacy login samples prove their encoding.
const examplePassword = document.components.parameters.password.example as string;
const seededLogin = createSandboxApps().seed.legacyLogins[0];
if (!seededLogin) {
  throw new Error("the sandbox seeds no direct login");
}
const hardLogin = { ...seededLogin, password: examplePassword };

let sandbox: RunningSandbox;
let tsFiles: Record<string, string>;
let java: ReturnType<typeof javaSamples>;

beforeAll(async () => {
  // Every sample needs fresh tokens: lift the exchange limit (5 a minute) that a reader would meet.
  sandbox = await startSandbox({
    exchangeRateLimit: { limit: 1000, windowMs: 60_000 },
    legacyLogins: [seededLogin, hardLogin],
  });
  tsFiles = await writeSamples(
    Object.fromEntries(
      operations.map((op) => [op.operationId, onSandbox(sample(op, "TypeScript"), sandbox)]),
    ),
  );
  java = javaSamples(
    Object.fromEntries(operations.map((op) => [op.operationId, onSandbox(sample(op, "Java"), sandbox)])),
  );
});
afterAll(() => sandbox?.stop());

describe("x-codeSamples of the bundled document", () => {
  it(`gives all ${operationTable.length} operations a curl, a TypeScript, a Python and a Java sample`, () => {
    expect(operations.map((op) => op.operationId).sort()).toEqual(
      operationTable.map((op) => op.operationId).sort(),
    );
    for (const op of operations) {
      expect(op["x-codeSamples"]?.map((s) => s.label)).toEqual(LANGUAGES);
    }
  });

  it("writes TypeScript the auth README's way: the token manager's auth.client(), no middleware", () => {
    const managed = operations
      .map((op) => sample(op, "TypeScript"))
      .filter((ts) => ts.includes("createTokenManager"));
    expect(managed.length).toBeGreaterThan(0);
    for (const ts of managed) {
      expect(ts).toContain("const client = auth.client();");
      expect(ts).not.toMatch(/auth\.middleware|createClient/);
    }
  });

  it("has TypeScript samples that type-check strictly against the built packages", async () => {
    await typecheck(Object.values(tsFiles));
  });

  it("uses placeholders a reader recognises, never the shell's own $USER or a literal secret", async () => {
    const variables = Object.keys(await credentials(sandbox, "main"));
    for (const op of operations) {
      for (const { source } of op["x-codeSamples"] ?? []) {
        for (const name of variablesIn(source)) {
          expect(variables).toContain(name);
        }
        expect(source).not.toMatch(/\$USER\b|\$PASSWORD\b/);
        expect(source).not.toContain(examplePassword);
      }
    }
  });

  for (const op of operations) {
    it(`${op.operationId}: the curl sample answers ${success(op)} on the sandbox`, async () => {
      const variables = await credentials(sandbox, host(op));
      const { statuses, stdout } = await runCurl(onSandbox(sample(op, "curl"), sandbox), variables);
      expect(statuses, stdout).toEqual([success(op)]);
    });

    it(`${op.operationId}: the TypeScript sample answers ${success(op)} on the sandbox`, async () => {
      const variables = await credentials(sandbox, host(op));
      const { statuses, stdout } = await runTypeScript(tsFiles[op.operationId] as string, variables);
      expect(statuses, stdout).toEqual([success(op)]);
    });

    it(`${op.operationId}: the Python sample answers ${success(op)} on the sandbox`, async () => {
      const variables = await credentials(sandbox, host(op));
      const source = onSandbox(sample(op, "Python"), sandbox);
      const { statuses, stdout } = await runPython(op.operationId, source, variables);
      expect(statuses, stdout).toEqual([success(op)]);
    });

    it(`${op.operationId}: the Java sample answers ${success(op)} on the sandbox`, async () => {
      const variables = await credentials(sandbox, host(op));
      const { statuses, stdout } = await java.run(op.operationId, variables);
      expect(statuses, stdout).toEqual([success(op)]);
    });
  }

  it("the legacy login samples (every language) percent-encode a password with space, +, = and &", async () => {
    const op = operations.find((o) => o.operationId === "legacyLogin") as Operation;
    const variables = await credentials(sandbox, "legacy", hardLogin);
    expect(variables.EV_PASSWORD).toMatch(/[ +=&]/);
    const curl = await runCurl(onSandbox(sample(op, "curl"), sandbox), variables);
    expect(curl.statuses, curl.stdout).toEqual([200]);
    const ts = await runTypeScript(tsFiles.legacyLogin as string, variables);
    expect(ts.statuses, ts.stdout).toEqual([200]);
    const python = await runPython("legacyLogin-hard", onSandbox(sample(op, "Python"), sandbox), variables);
    expect(python.statuses, python.stdout).toEqual([200]);
    const javaRun = await java.run(op.operationId, variables);
    expect(javaRun.statuses, javaRun.stdout).toEqual([200]);
  });
});
