/**
 * A session's store writes, one after another, so that a logout's clear always lands after an earlier
 * set and a mark never overtakes the set it marks.
 */
export function writesInTurn() {
  let last: Promise<unknown> = Promise.resolve();
  return {
    write<T>(task: () => Promise<T>): Promise<T> {
      const next = last.then(task);
      last = next.catch(() => {});
      return next;
    },
    /** Resolves once every write given so far has ended. */
    settled: (): Promise<unknown> => last,
  };
}

export type WritesInTurn = ReturnType<typeof writesInTurn>;
