// The published @engage-voice/spec installed with plain npm (in the sandbox's consumer project): both
// documents reached through the package's exports say the package's version, and under Bun, which
// parses YAML itself, the YAML document is the JSON one.
import { plainEnv } from "@engage-voice/release/env";
import { run, tail } from "@engage-voice/test-kit/processes";
import type { Cell } from "../cell.ts";
import { binaryOf, runtimes } from "../runtimes.ts";

interface SpecReport {
  name?: unknown;
  packageVersion?: unknown;
  jsonVersion?: unknown;
  yamlVersion?: unknown;
  yamlSameDocument?: unknown;
  paths?: unknown;
}

async function report(runtime: "node24" | "bun", dir: string): Promise<SpecReport> {
  const result = await run(binaryOf(runtimes[runtime]), ["spec.mjs"], {
    cwd: dir,
    env: plainEnv(),
    timeoutMs: 60_000,
  });
  if (result.code !== 0) {
    throw new Error(
      `${runtime} spec.mjs exited with ${result.code}\n${tail(result.stdout)}${tail(result.stderr)}`,
    );
  }
  return JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as SpecReport;
}

/** `released` answers the version the registry released the spec at, which the documents must name. */
export function specPackageCell(consumer: () => Promise<string>, released: () => string): Cell {
  return {
    name: "spec package: npm install, openapi.json and openapi.yaml",
    async run() {
      const dir = await consumer();
      const version = released();
      const expected = {
        name: "@engage-voice/spec",
        packageVersion: version,
        jsonVersion: version,
        yamlVersion: version,
      };
      const node = await report("node24", dir);
      const bun = await report("bun", dir);
      for (const [runtime, seen, sameDocument] of [
        ["node24", node, null],
        ["bun", bun, true],
      ] as const) {
        const wanted = { ...expected, yamlSameDocument: sameDocument };
        const got = Object.fromEntries(
          Object.keys(wanted).map((key) => [key, seen[key as keyof SpecReport]]),
        );
        if (JSON.stringify(got) !== JSON.stringify(wanted)) {
          throw new Error(`${runtime}: expected ${JSON.stringify(wanted)}, got ${JSON.stringify(got)}`);
        }
        if (typeof seen.paths !== "number" || seen.paths === 0) {
          throw new Error(`${runtime}: openapi.json has no paths`);
        }
      }
      return `${version}: info.version in openapi.json and openapi.yaml; the YAML parses to the JSON (bun)`;
    },
  };
}
