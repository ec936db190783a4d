import { describe, expect, it } from "vitest";
import { addedCost, addedMicros, type Measurement, measure, median, quantile } from "../src/measure.ts";

describe("median and quantile", () => {
  it("take the middle, or the mean of the two middles", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it("pick the nearest rank", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(quantile(values, 0.99)).toBe(99);
    expect(quantile(values, 0.5)).toBe(50);
    expect(quantile([7], 0.99)).toBe(7);
  });
});

describe("addedCost", () => {
  it("is the median over the rounds of the time ratio minus one", () => {
    const rounds = [
      new Map([
        ["a", 1],
        ["b", 1.1],
      ]),
      new Map([
        ["a", 2],
        ["b", 3],
      ]),
      new Map([
        ["a", 1],
        ["b", 1.2],
      ]),
    ];
    const measurement: Measurement = { rows: [], rounds };
    expect(addedCost(measurement, "b", "a")).toBeCloseTo(0.2);
  });
});

describe("measure", () => {
  it("times each contender in every round, with the first as the baseline, and reports skipped ones", async () => {
    let calls = 0;
    const work = async () => {
      calls += 1;
    };
    const { rows, rounds } = await measure(
      [
        { name: "base", call: work },
        { name: "other", call: async () => work(), note: "wrapped" },
        { name: "absent", skipped: "cannot be driven here" },
      ],
      { rounds: 2, time: 10, warmupTime: 1 },
    );
    expect(rounds).toHaveLength(2);
    expect(rows.map((r) => r.name)).toEqual(["base", "other", "absent"]);
    expect(rows[0]?.timeRatio).toBe(1);
    expect(rows[1]?.note).toBe("wrapped");
    expect(rows[1]?.opsPerSec).toBeGreaterThan(0);
    expect((rows[0]?.calls ?? 0) + (rows[1]?.calls ?? 0)).toBeLessThanOrEqual(calls);
    expect(rows[2]).toEqual({ name: "absent", skipped: "cannot be driven here" });
  });

  it("stops on a contender that throws instead of timing its failure", async () => {
    await expect(
      measure(
        [
          {
            name: "broken",
            call: async () => {
              throw new Error("boom");
            },
          },
        ],
        { rounds: 1, time: 5, warmupTime: 1 },
      ),
    ).rejects.toThrow("boom");
  });
});

describe("addedMicros", () => {
  it("is the median over the rounds of the time difference, in µs", () => {
    const rounds = [
      new Map([
        ["a", 0.01],
        ["b", 0.012],
      ]),
      new Map([
        ["a", 0.01],
        ["b", 0.02],
      ]),
      new Map([
        ["a", 0.01],
        ["b", 0.013],
      ]),
    ];
    expect(addedMicros({ rows: [], rounds }, "b", "a")).toBeCloseTo(3);
  });
});
