import { describe, expect, it } from "vitest";
import {
  addedCost,
  addedMicros,
  type Measurement,
  measure,
  median,
  pairedCost,
  quantile,
} from "../src/measure.ts";
import { spreadOf } from "../src/verdict.ts";

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

describe("spreadOf, the spread of per-round added costs", () => {
  it("is the median of the per-round added cost and the median absolute deviation from it", () => {
    const added = spreadOf([1.1, 1.5, 1.2, 1.0, 1.3].map((b) => b / 1 - 1));
    expect(added.median).toBeCloseTo(0.2);
    // Deviations 0.1, 0.3, 0, 0.2, 0.1: their median is 0.1.
    expect(added.spread).toBeCloseTo(0.1);
    expect(added.rounds).toBe(5);
  });
});

describe("pairedCost", () => {
  it("reads the cost one call adds to another from alternating batches, with its spread", async () => {
    // An injected clock: each call moves it by its cost, so the verdict races nothing.
    let clock = 0;
    const costs = (micros: number) => async () => {
      clock += micros / 1000;
    };
    const added = await pairedCost(costs(100), costs(150), { pairs: 9, batch: 5, now: () => clock });
    expect(added.rounds).toBe(9);
    expect(added.of).toBe("alternating pairs of 5-call batches");
    // 150 µs against 100 µs: +50%, 50 µs a call, the same in every pair.
    expect(added.median).toBeCloseTo(0.5);
    expect(added.micros).toBeCloseTo(50);
    expect(added.spread).toBeCloseTo(0);
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

  it("times in CPU time with clock: cpu, where a wait that burns no CPU costs next to nothing", async () => {
    const sleeper = async () => new Promise((resolve) => setTimeout(resolve, 2));
    // Spins until it has used 2 ms of CPU time, however busy the machine is.
    const spinner = async () => {
      const used = () => {
        const { user, system } = process.cpuUsage();
        return user + system;
      };
      const until = used() + 2_000;
      while (used() < until) {}
    };
    const options = { rounds: 1, time: 40, warmupTime: 1 };
    const wall = await measure(
      [
        { name: "sleep", call: sleeper },
        { name: "spin", call: spinner },
      ],
      options,
    );
    const cpu = await measure(
      [
        { name: "sleep", call: sleeper },
        { name: "spin", call: spinner },
      ],
      { ...options, clock: "cpu" },
    );
    // Both take at least 2 ms of wall time; only the spinner takes CPU time.
    expect(wall.rows[0]?.microsPerCall).toBeGreaterThan(1500);
    expect(cpu.rows[0]?.microsPerCall).toBeLessThan(1000);
    expect(cpu.rows[1]?.microsPerCall).toBeGreaterThan(1000);
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
