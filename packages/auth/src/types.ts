/** A fetch as openapi-fetch calls it. The global fetch fits. */
export type FetchLike = (input: Request) => Promise<Response>;

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
