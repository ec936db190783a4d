// The matrix's own verdicts, which would otherwise pass silently if they broke: the comparison of a
// runtime's result with the expected one, and the runner's report (every cell, in order, failures kept).
import assert from "node:assert/strict";
import { test } from "node:test";
import { type CellOutcome, runCells } from "../src/cell.ts";
import { compareResult, expectedResult, parseResultLine } from "../src/expect.ts";
import { TOKEN_LIFETIME_MS } from "../src/sandbox.ts";

const expected = expectedResult(true, 1001, TOKEN_LIFETIME_MS);

test("a result equal to the expected one passes; any field that differs is named", () => {
  compareResult(structuredClone(expected) as unknown as Record<string, unknown>, expected);
  const skipped = { ...expected, calls: expected.calls.slice(1) };
  assert.throws(() => compareResult(skipped, expected), /calls: expected/);
  const { users: _users, ...missing } = expected;
  assert.throws(() => compareResult(missing, expected), /users: expected/);
});

test("the result line is found among the consumer's output, or its absence is reported", () => {
  const line = parseResultLine(`noise\nMATRIX_RESULT {"tokenSets":2}\nmore`);
  assert.deepEqual(line, { tokenSets: 2 });
  assert.throws(() => parseResultLine("no result"), /printed no result line/);
});

test("the runner reports every cell once, in the cells' order, failures with their reason", async () => {
  const delays = [30, 0, 10];
  const cells = delays.map((ms, i) => ({
    name: `cell ${i}`,
    run: async () => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (i === 1) {
        throw new Error("broken");
      }
      return `note ${i}`;
    },
  }));
  const seen: CellOutcome[] = [];
  await runCells(cells, 2, (outcome) => seen.push(outcome));
  assert.deepEqual(
    seen.map(({ name, passed, note, error }) => ({ name, passed, note, error })),
    [
      { name: "cell 0", passed: true, note: "note 0", error: undefined },
      { name: "cell 1", passed: false, note: undefined, error: "broken" },
      { name: "cell 2", passed: true, note: "note 2", error: undefined },
    ],
  );
});
