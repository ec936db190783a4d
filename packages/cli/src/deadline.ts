// `--timeout` bounds the whole command, as its help says: the libraries' deadlines are per call, and
// the token manager tries a failed exchange again, so a host that never answers held `login` for
// three deadlines and their backoff. One timer here ends every request, wait and retry of the command.

/** The command ran out of its `--timeout`. Names the deadline and the host it waited for, no value. */
export class DeadlineError extends Error {
  override readonly name = "DeadlineError";
  readonly code = "command_timeout";
  constructor(
    readonly timeoutMs: number,
    /** The origin of a request still unanswered at the deadline, if one was. */
    readonly waitingFor: string | undefined,
  ) {
    super(`The command did not finish within ${timeoutMs} ms`);
  }
}

export class CommandDeadline {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private left: number;
  private armedAt = 0;
  private pauses = 0;
  private rejectExpired: (error: DeadlineError) => void = () => {};
  /** Requests under way, by origin: the deadline blames the oldest host still silent. */
  private readonly pending = new Map<string, number>();
  /** Aborted, with the `DeadlineError` as its reason, when the deadline passes. */
  readonly signal = this.controller.signal;
  private readonly expired = new Promise<never>((_, reject) => {
    this.rejectExpired = reject;
  });

  constructor(
    readonly ms: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    // Settled by `within` when it races, and never otherwise worth an unhandled-rejection warning.
    this.expired.catch(() => {});
    this.left = ms;
    this.arm();
  }

  private arm(): void {
    this.armedAt = this.now();
    this.timer = setTimeout(() => this.expire(), this.left);
  }

  private expire(): void {
    const [waitingFor] = this.pending.keys();
    const error = new DeadlineError(this.ms, waitingFor);
    // Rejected before the abort, so that the command's race ends with this error rather than with
    // whatever an aborted request turns into on its way up.
    this.rejectExpired(error);
    this.controller.abort(error);
  }

  /** `work` (the command), or the `DeadlineError` once the deadline passes, whichever comes first. */
  within<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.expired]);
  }

  /**
   * A person typing a token or answering a question is not the host being slow: the deadline stands
   * still while `input` is awaited.
   */
  async paused<T>(input: Promise<T>): Promise<T> {
    if (this.signal.aborted) {
      return input;
    }
    if (this.pauses++ === 0) {
      clearTimeout(this.timer);
      this.left -= this.now() - this.armedAt;
    }
    try {
      return await input;
    } finally {
      if (--this.pauses === 0 && !this.signal.aborted) {
        this.arm();
      }
    }
  }

  /** Marks a request to `origin` as under way; the returned function marks it answered. */
  request(origin: string): () => void {
    this.pending.set(origin, (this.pending.get(origin) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) {
        return;
      }
      done = true;
      const count = (this.pending.get(origin) ?? 1) - 1;
      if (count === 0) {
        this.pending.delete(origin);
      } else {
        this.pending.set(origin, count);
      }
    };
  }

  /** `signal` and the deadline: aborted by whichever aborts first. */
  and(signal: AbortSignal | null | undefined): AbortSignal {
    return signal ? AbortSignal.any([signal, this.signal]) : this.signal;
  }

  /** The command is over: the timer no longer holds the process. */
  stop(): void {
    clearTimeout(this.timer);
  }
}
