/**
 * How many renewals of a pool's tenants run at once; the others wait their turn, first come first
 * served, before they take their store's lock (so a queued renewal holds no lock). Without a bound,
 * thousands of tenants whose first calls come together each open a connection to the token host at
 * once, overflow its listen backlog, and wait out retransmissions and their own deadlines.
 */
export type RenewalSlots = <T>(run: () => Promise<T>, signal: AbortSignal) => Promise<T>;

/** At most `max` renewals at once; a renewal given up while it waits (`signal`) leaves the line. */
export function renewalSlots(max: number): RenewalSlots {
  let running = 0;
  const line: (() => void)[] = [];
  return async (run, signal) => {
    if (running < max) {
      running++;
    } else {
      await new Promise<void>((resolve, reject) => {
        const start = () => {
          signal.removeEventListener("abort", leave);
          resolve();
        };
        const leave = () => {
          line.splice(line.indexOf(start), 1);
          reject(signal.reason);
        };
        signal.throwIfAborted();
        line.push(start);
        signal.addEventListener("abort", leave, { once: true });
      });
    }
    try {
      return await run();
    } finally {
      // The slot passes to the next in line as it is, so no newcomer can take it in between.
      const next = line.shift();
      if (next) {
        next();
      } else {
        running--;
      }
    }
  };
}
