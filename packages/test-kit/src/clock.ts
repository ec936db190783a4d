/** 2025-01-15 12:00 UTC: a fixed start, so that token times read the same in every run. */
export const START = Date.UTC(2025, 0, 15, 12, 0, 0);

/** A clock that moves only when a test says so. */
export interface FakeClock {
  now(): number;
  advance(ms: number): void;
}

export function fakeClock(start = START): FakeClock {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}
