// The lines of --debug (or ENGAGE_VOICE_LOG=debug) on stderr: every line with one prefix, and one
// line per request, written by the CLI's fetch with its host, status and time. The client's own line
// for each try (its call policy's `debug`, shaped as TRY_LINE) is left out: the fetch's stands for it.
import { TRY_LINE } from "@engage-voice/client/internal";

export const DEBUG_PREFIX = "[debug] ";

/** `text` as debug lines: each of its lines prefixed (a stack's frames too), each ended. */
export const debugLines = (text: string) =>
  text
    .split("\n")
    .map((line) => `${DEBUG_PREFIX}${line}\n`)
    .join("");

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
    const key = TRY_LINE.exec(text)?.[1];
    const count = key === undefined ? 0 : (this.written.get(key) ?? 0);
    if (key !== undefined && count > 0) {
      this.written.set(key, count - 1);
      return;
    }
    this.line(text);
  };
}
