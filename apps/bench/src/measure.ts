// Times contenders with tinybench in several rounds. Each round starts at a different contender, so
// no row always runs first (cold) or last (after the others' garbage), and the result of a row is the
// median over the rounds. Ratios are taken within a round, against raw fetch of the same round.
import { Bench, type TimestampProvider } from "tinybench";
import type { Contender } from "./contenders.ts";
import { type Spread, spreadOf } from "./verdict.ts";

export interface MeasureOptions {
  rounds: number;
  /** Time per contender and round, in ms. */
  time: number;
  warmupTime: number;
  /**
   * What a call's time is: `wall` (the default) is elapsed time; `cpu` is the process's CPU time
   * (user + system, its collector's threads included), which other work on a shared machine moves far
   * less. Only for calls that never wait on I/O (the stubbed fetch): CPU time leaves the waits out.
   */
  clock?: "wall" | "cpu";
}

/** The process's CPU time in ms, at µs resolution; its own cost (about 1 µs) is subtracted by tinybench. */
export const cpuClock: TimestampProvider = {
  name: "process.cpuUsage",
  fn: () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  },
  toMs: (value) => value as number,
  fromMs: (value) => value,
};

export interface Row {
  name: string;
  note?: string;
  skipped?: string;
  /** Median operations per second over the rounds. */
  opsPerSec?: number;
  /** Median time per call, in microseconds. */
  microsPerCall?: number;
  /** Median of (time per call / the baseline's time per call) over the rounds. */
  timeRatio?: number;
  /** Median absolute deviation of ops/s over the rounds, relative to the median. */
  spread?: number;
  calls?: number;
}

export interface Measurement {
  rows: Row[];
  /** Per round, per contender name: mean ms per call. */
  rounds: Map<string, number>[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) {
    return Number.NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The value below which `q` (0..1) of the values fall, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) {
    return Number.NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

const collectGarbage = (globalThis as { gc?: () => void }).gc;

/** Runs every timed contender `rounds` times; the first contender is the baseline of the ratios. */
export async function measure(list: Contender[], options: MeasureOptions): Promise<Measurement> {
  const timed = list.filter((c): c is Contender & { call: () => Promise<unknown> } => c.call !== undefined);
  const baseline = timed[0]?.name;
  const rounds: Map<string, number>[] = [];
  const calls = new Map<string, number>();
  for (let round = 0; round < options.rounds; round++) {
    const bench = new Bench({
      time: options.time,
      warmupTime: options.warmupTime,
      throws: true,
      ...(options.clock === "cpu" ? { timestampProvider: cpuClock, subtractTimerOverhead: true } : {}),
      // A collection between rows keeps one row's garbage from being collected on another's clock.
      setup: () => collectGarbage?.(),
    });
    for (let i = 0; i < timed.length; i++) {
      const contender = timed[(i + round) % timed.length] as (typeof timed)[number];
      bench.add(contender.name, contender.call);
    }
    await bench.run();
    const periods = new Map<string, number>();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== "completed") {
        throw new Error(`${task.name} did not complete (${result.state})`);
      }
      periods.set(task.name, result.period);
      calls.set(task.name, (calls.get(task.name) ?? 0) + task.runs);
    }
    rounds.push(periods);
  }

  const rows = list.map((contender): Row => {
    const base: Row = { name: contender.name };
    if (contender.note) {
      base.note = contender.note;
    }
    if (!contender.call) {
      return { ...base, skipped: contender.skipped ?? "not timed" };
    }
    const periods = rounds.map((r) => r.get(contender.name) as number);
    const ops = periods.map((p) => 1000 / p);
    const opsPerSec = median(ops);
    const ratios = baseline
      ? rounds.map((r) => (r.get(contender.name) as number) / (r.get(baseline) as number))
      : [];
    return {
      ...base,
      opsPerSec,
      microsPerCall: median(periods) * 1000,
      timeRatio: median(ratios),
      spread: median(ops.map((o) => Math.abs(o - opsPerSec))) / opsPerSec,
      calls: calls.get(contender.name) ?? 0,
    };
  });
  return { rows, rounds };
}

/** Median over the rounds of (time of `name` / time of `reference`) - 1: the cost `name` adds. */
export function addedCost(measurement: Measurement, name: string, reference: string): number {
  return median(measurement.rounds.map((r) => (r.get(name) as number) / (r.get(reference) as number) - 1));
}

/** The cost one call adds to another, over paired batches: its median, spread and time per call. */
export interface AddedCost extends Spread {
  of: string;
  /** Median over the pairs of the time added per call, in µs. */
  micros: number;
}

export interface PairOptions {
  /** Pairs of batches, one of each call, alternating which goes first. */
  pairs: number;
  /** Calls in a batch, timed together. */
  batch: number;
  clock?: "wall" | "cpu";
}

/**
 * The cost `other` adds to `base`, from batches of each run back to back, alternating which goes
 * first: a pair sees the same state of a shared machine, so its ratio moves far less than ratios of
 * rows timed a second apart. The result is the median and MAD of the per-pair added cost.
 */
export async function pairedCost(
  base: () => Promise<unknown>,
  other: () => Promise<unknown>,
  {
    pairs,
    batch,
    clock = "wall",
    now = clock === "cpu" ? (cpuClock.fn as () => number) : () => performance.now(),
  }: PairOptions & {
    /** Milliseconds; the clock `clock` names unless a test injects one. */
    now?: () => number;
  },
): Promise<AddedCost> {
  const time = async (call: () => Promise<unknown>) => {
    const start = now();
    for (let i = 0; i < batch; i++) {
      await call();
    }
    return (now() - start) / batch;
  };
  // A warm-up pair, not counted.
  await time(base);
  await time(other);
  const added: number[] = [];
  const micros: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    let baseTime: number;
    let otherTime: number;
    if (pair % 2 === 0) {
      baseTime = await time(base);
      otherTime = await time(other);
    } else {
      otherTime = await time(other);
      baseTime = await time(base);
    }
    added.push(otherTime / baseTime - 1);
    micros.push((otherTime - baseTime) * 1000);
  }
  return {
    ...spreadOf(added),
    of: `alternating pairs of ${batch}-call batches${clock === "cpu" ? " in CPU time" : ""}`,
    micros: median(micros),
  };
}

/** Median over the rounds of (time of `name` - time of `reference`), in microseconds per call. */
export function addedMicros(measurement: Measurement, name: string, reference: string): number {
  return median(
    measurement.rounds.map((r) => ((r.get(name) as number) - (r.get(reference) as number)) * 1000),
  );
}
