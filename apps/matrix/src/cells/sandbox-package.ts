// The published @engage-voice/sandbox installed with plain npm in an empty project, each way in used with
// the published client and auth (issue: the test kit as packages).

import { plainEnv } from "@engage-voice/release/env";
import { run, tail } from "@engage-voice/test-kit/processes";
import type { Cell } from "../cell.ts";
import { binaryOf, runtimes } from "../runtimes.ts";

export function sandboxPackageCell(consumer: () => Promise<string>): Cell {
  return {
    name: "sandbox package: node, fetch handler, msw",
    async run() {
      const dir = await consumer();
      const result = await run(binaryOf(runtimes.node24), ["main.mjs"], {
        cwd: dir,
        env: plainEnv(),
        timeoutMs: 60_000,
      });
      if (result.code !== 0) {
        throw new Error(`main.mjs exited with ${result.code}\n${tail(result.stdout)}${tail(result.stderr)}`);
      }
      const counts = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, number>;
      for (const way of ["node", "fetchHandler", "msw"]) {
        if (!(counts[way] && counts[way] > 0)) {
          throw new Error(`${way}: no accounts listed (${result.stdout.trim()})`);
        }
      }
      return `accounts listed ${counts.node}/${counts.fetchHandler}/${counts.msw} ways`;
    },
  };
}
