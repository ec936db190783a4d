type Timer = ReturnType<typeof setTimeout>;

const monotonic = () => performance.now();

/**
 * A timer fires when its delay has passed on the event loop's own clock, which counts whole
 * milliseconds: read on `performance.now()` it can come up to a millisecond early. A deadline due
 * within this much of the firing is ended then, rather than on a second timer a millisecond later.
 */
const EARLY_MS = 1;

/**
 * One timer for the deadlines of every call in flight, rather than a timer a call: setting and
 * clearing a timer was most of what the deadline cost a call over loopback (measured: a call whose
 * deadline was never armed read 1.05× bare openapi-fetch, against 1.21×). The timer is set for the
 * earliest deadline held, and set again only when a new deadline is earlier than it, or when it
 * fires; calls that start and end in turn (the common case: the same `timeoutMs`, each call ending
 * long before it) find it set already and cost a set insertion and a deletion.
 *
 * It holds the process while a call that its caller awaits is in flight, and never once none is:
 * unref'd then, it stays set (the next call reuses it) but lets a script whose calls are done end.
 */
export class DeadlineTimer {
  /** Deadlines still guarding something: a call in flight, or a body its caller reads. */
  readonly #held = new Set<Deadline>();
  /** How many of them are calls in flight, which keep the process alive. */
  #inFlight = 0;
  #timer: Timer | undefined;
  /** When the timer fires, on `now`'s time base. */
  #timerAt = Number.POSITIVE_INFINITY;
  /**
   * The clearTimeout paired with the setTimeout that set the timer. Tests install and uninstall fake
   * timers: a timer set on the fake ones is dropped with them, so a different setTimeout in place
   * sets the timer again on the one in place.
   */
  #setWith: typeof setTimeout | undefined;
  #clearWith: typeof clearTimeout | undefined;

  constructor(
    /** The timers' own time base, not the call policy's clock, which tests move at will. */
    readonly now: () => number = monotonic,
  ) {}

  /** Starts guarding `deadline`, which holds the process until {@link release}. */
  add(deadline: Deadline): void {
    this.#held.add(deadline);
    if (this.#inFlight++ === 0) {
      (this.#timer as { ref?: () => void } | undefined)?.ref?.();
    }
    if (deadline.dueAt < this.#timerAt || this.#setWith !== setTimeout) {
      this.#set(deadline.dueAt);
    }
  }

  /** The call returned: with `keep`, its deadline goes on guarding the body, without holding the process. */
  release(deadline: Deadline, keep: boolean): void {
    if (!keep) {
      this.#held.delete(deadline);
    }
    if (--this.#inFlight === 0) {
      // Left set, for the next call: a timer that fires with nothing due is cheaper than one a call.
      (this.#timer as { unref?: () => void } | undefined)?.unref?.();
    }
  }

  /** How many deadlines the timer guards (tests read it; calls never do). */
  get size(): number {
    return this.#held.size;
  }

  #set(at: number): void {
    if (this.#timer !== undefined) {
      this.#clearWith?.(this.#timer);
    }
    this.#setWith = setTimeout;
    this.#clearWith = clearTimeout;
    this.#timerAt = at;
    const timer = setTimeout(() => this.#fire(timer), Math.max(0, at - this.now()));
    this.#timer = timer;
    if (this.#inFlight === 0) {
      (timer as { unref?: () => void }).unref?.();
    }
  }

  #fire(timer: Timer): void {
    if (timer !== this.#timer) {
      return;
    }
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = this.now();
    let next = Number.POSITIVE_INFINITY;
    const due: Deadline[] = [];
    for (const deadline of this.#held) {
      if (deadline.dueAt <= now + EARLY_MS) {
        due.push(deadline);
      } else if (deadline.dueAt < next) {
        next = deadline.dueAt;
      }
    }
    for (const deadline of due) {
      this.#held.delete(deadline);
    }
    if (next !== Number.POSITIVE_INFINITY) {
      this.#set(next);
    }
    // Last: what a deadline's end runs (an abort, its listeners) finds the timer set for the others.
    for (const deadline of due) {
      deadline.expire();
    }
  }
}

/** The timer of every call's deadline in this process (or realm). */
const shared = new DeadlineTimer();

/**
 * One call's deadline, `ms` from its start, on the timer shared by every call in flight: a deadline
 * still ends its call wherever it is (a try, a wait between tries, a body read), within a
 * millisecond or so of its time. While the call is in flight the timer holds the process, so a call
 * that is awaited never lets a one-shot script end with its work undone.
 */
export class Deadline {
  readonly dueAt: number;
  /** Dropped when the call ends: an ended deadline holds nothing of its call. */
  #fire: (() => void) | undefined;
  /** Until the call ends. */
  #timer: DeadlineTimer | undefined;

  constructor(ms: number, fire: (() => void) | undefined, timer: DeadlineTimer = shared) {
    this.#fire = fire;
    this.#timer = timer;
    this.dueAt = timer.now() + ms;
    timer.add(this);
  }

  /** Called by the timer at the deadline. */
  expire(): void {
    const fire = this.#fire;
    this.#fire = undefined;
    fire?.();
  }

  /**
   * The call has returned. With `keep`, the caller still reads the body: the deadline goes on guarding
   * it, but no longer holds a process whose awaited work is done.
   */
  end(keep: boolean): void {
    if (!keep) {
      this.#fire = undefined;
    }
    this.#timer?.release(this, keep);
    this.#timer = undefined;
  }
}
