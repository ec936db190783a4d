type Timer = ReturnType<typeof setTimeout>;
type Schedule = (run: () => void) => unknown;

/**
 * What runs a function at the end of this turn of the event loop (after its I/O, before the next
 * turn's timers): `setImmediate` where there is one, else a 0 ms timeout. Looked up on each call, so
 * that a test's fake timers drive it as they drive the deadline's timer.
 */
const turnScheduler = (): Schedule => (typeof setImmediate === "function" ? setImmediate : setTimeout);

const monotonic = () => performance.now();

/** Deadlines of calls started in this turn, armed when it ends if their call is still going. */
let starting: Deadline[] = [];
/**
 * What the end of this turn was scheduled with. Fake timers uninstalled before they ran it drop it:
 * a call made with another scheduler schedules the turn again (a second run finds nothing to arm).
 */
let scheduledWith: Schedule | undefined;
/**
 * A turn can be long: a loop of calls that a stub or a cache answers never yields to the event loop.
 * The list then drops the deadlines of the calls that have ended whenever it doubles in length.
 */
let compactAt = 256;

function armStarted(): void {
  const list = starting;
  starting = [];
  compactAt = 256;
  for (const deadline of list) {
    deadline.arm();
  }
}

/**
 * One call's deadline. Its timer is armed when the turn of the event loop in which the call started
 * ends, for the time left, rather than at once: a call answered within its turn (a cache, a mock, a
 * service worker, a stub) never makes a timer, which cost 7% of such a call's CPU time (measured). A call that
 * waits for I/O has its timer from the end of that turn on. Until then the turn itself (an immediate,
 * which Node keeps the process alive for) holds the process, and after it the timer does: a call that
 * is awaited never lets a one-shot script end with its work undone.
 */
export class Deadline {
  private timer: Timer | undefined;
  /** Read by the list of this turn's deadlines, which drops the ended ones. */
  state: "starting" | "armed" | "ended" = "starting";

  private readonly startedAt: number;

  constructor(
    private readonly ms: number,
    /** Dropped when the call ends: an ended deadline waiting for its turn holds nothing of its call. */
    private fire: (() => void) | undefined,
    /** The timers' own time base, not the call policy's clock, which tests move at will. */
    private readonly now: () => number = monotonic,
  ) {
    this.startedAt = now();
    const length = starting.push(this);
    const schedule = turnScheduler();
    if (length === 1 || schedule !== scheduledWith) {
      scheduledWith = schedule;
      schedule(armStarted);
    } else if (length > compactAt) {
      starting = starting.filter((deadline) => deadline.state === "starting");
      compactAt = Math.max(256, starting.length * 2);
    }
  }

  /** Sets the timer for what is left of the deadline, once. */
  arm(): void {
    if (this.state === "starting") {
      this.state = "armed";
      this.timer = setTimeout(this.fire as () => void, Math.max(0, this.ms - (this.now() - this.startedAt)));
    }
  }

  /**
   * The call has returned. With `keep`, the caller still reads the body: the deadline goes on guarding
   * it, but no longer holds a process whose awaited work is done.
   */
  end(keep: boolean): void {
    if (keep) {
      this.arm();
      (this.timer as { unref?: () => void } | undefined)?.unref?.();
    } else {
      if (this.state === "armed") {
        clearTimeout(this.timer);
      }
      this.fire = undefined;
    }
    this.state = "ended";
  }
}

/** How many deadlines wait for the end of this turn (tests read it; calls never do). */
export const waitingForTheirTurn = (): number => starting.length;
