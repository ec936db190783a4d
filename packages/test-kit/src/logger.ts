/** The logger shape the packages accept (console fits). */
export interface Logger {
  debug?(message: string): void;
  info?(message: string): void;
  warn?(message: string): void;
  error?(message: string): void;
}

/** A logger that keeps every line, prefixed with its level. */
export function recordingLogger() {
  const lines: string[] = [];
  const logger: Required<Logger> = {
    debug: (m) => lines.push(`debug ${m}`),
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
  return { lines, logger };
}
