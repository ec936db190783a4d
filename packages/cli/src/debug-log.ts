// The lines of --debug (or ENGAGE_VOICE_LOG=debug) on stderr: every line with one prefix, and one
// line per request, written by the CLI's fetch with its host, status and time.

export const DEBUG_PREFIX = "[debug] ";

/** `text` as debug lines: each of its lines prefixed (a stack's frames too), each ended. */
export const debugLines = (text: string) =>
  text
    .split("\n")
    .map((line) => `${DEBUG_PREFIX}${line}\n`)
    .join("");

/**
 * The client's own line for each try of a call (`GET /voice/api/v1/admin/users 200 in 41 ms`, its call
 * policy's `debug`). The CLI's fetch has written a line for that try already, with the host, so the
 * library's is left out: one line per request. Its shape is the client's; the CLI's tests count the
 * lines of a command, so a change of it there shows here as a second line per request.
 */
const LIBRARY_TRY = /^([A-Z]+ \S+) (?:\d{3}|got no answer) in \d+ ms$/;

export class DebugLog {
  /** Tries the fetch has written, by the library's name for them (method and path template). */
  private readonly written = new Map<string, number>();

  constructor(private readonly write: (text: string) => void) {}

  /** A line of the CLI's own. */
  line = (text: string): void => {
    this.write(debugLines(text));
  };

  /** The line of a request the CLI's fetch sent; `key` is how the libraries name it (`GET /path`). */
  request(key: string, text: string): void {
    this.written.set(key, (this.written.get(key) ?? 0) + 1);
    this.line(text);
  }

  /** A library's line: its line for a try the fetch has written is left out. */
  library = (text: string): void => {
    const key = LIBRARY_TRY.exec(text)?.[1];
    const count = key === undefined ? 0 : (this.written.get(key) ?? 0);
    if (key !== undefined && count > 0) {
      this.written.set(key, count - 1);
      return;
    }
    this.line(text);
  };
}
