/**
 * A fetch as this package's clients call it: the Request, and beside it the call's `signal` (which
 * ends the call at its deadline or abort: pass it on). The global fetch fits.
 */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/** Where log lines go. Every method is optional; lines never hold a secret. */
export interface Logger {
  debug?(message: string): void;
  info?(message: string): void;
  warn?(message: string): void;
  error?(message: string): void;
}

/** The time source: epoch milliseconds. */
export interface Clock {
  now(): number;
}
