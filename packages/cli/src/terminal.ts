// The little terminal work a CLI needs, without a dependency: a table, a spinner on stderr, a
// prompt that does not echo, a yes/no question, reading stdin.
import { CliError, EXIT, usageError } from "./exit.js";

export interface OutStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface InStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/**
 * What a terminal acts on instead of printing: C0 and C1 controls (ESC and CSI start the sequences
 * that move the cursor, clear the screen, retitle the window, write the clipboard with OSC 52 or
 * hide a link with OSC 8), DEL, line and paragraph separators, and the bidi controls that reorder
 * what follows them (U+061C, U+200E/F, U+202A-202E, U+2066-2069).
 */
const BEYOND_C0 = "\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069";
const UNPRINTABLE = new RegExp(`[\\u0000-\\u001f${BEYOND_C0}]`, "g");
/** JSON.stringify escapes C0 controls inside strings; its own line breaks are the only ones left. */
const UNESCAPED_BY_JSON = new RegExp(`[${BEYOND_C0}]`, "g");

/** Text from an API answer for a line of output: every unprintable character becomes `?`. */
export function printable(value: unknown): string {
  if (value === undefined || value === null) {
    return "";
  }
  return String(value).replace(UNPRINTABLE, "?");
}

/**
 * JSON for stdout (indented, or on one line), a terminal or a pipe: the unprintable characters that `JSON.stringify` leaves
 * as they are (C1, DEL, bidi controls, separators) are written as `\uXXXX` escapes, so the output
 * cannot act on a terminal and parses back to the same data.
 */
export function jsonText(value: unknown, indented = true): string {
  const text = JSON.stringify(value, null, indented ? 2 : undefined).replace(
    UNESCAPED_BY_JSON,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `${text}\n`;
}

/** Left-aligned columns, two spaces apart, headers in capitals. */
export function table(headers: string[], rows: unknown[][]): string {
  const cells = [headers, ...rows.map((row) => row.map(printable))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? "").length)));
  return `${cells
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n")}\n`;
}

/** A wait shorter than this shows nothing: a spinner that flashes is noise. */
export const SPINNER_DELAY_MS = 400;

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * A one-line spinner on stderr for waits, shown only on a terminal and only once a wait has lasted
 * `delayMs`; piped, it writes nothing at all.
 */
export class Spinner {
  private readonly labels = new Map<number, string>();
  private next = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private delay: ReturnType<typeof setTimeout> | undefined;
  private frame = 0;
  private shown = false;

  constructor(
    private readonly stream: OutStream,
    private readonly enabled: boolean,
    private readonly delayMs = SPINNER_DELAY_MS,
  ) {}

  /** Starts a wait; returns the function that ends it. */
  begin(label: string): () => void {
    if (!this.enabled) {
      return () => {};
    }
    const id = this.next++;
    this.labels.set(id, label);
    if (!this.timer && !this.delay) {
      this.delay = setTimeout(() => {
        this.delay = undefined;
        this.timer = setInterval(() => this.draw(), 80);
        this.timer.unref?.();
        this.draw();
      }, this.delayMs);
      this.delay.unref?.();
    }
    return () => {
      this.labels.delete(id);
      if (this.labels.size === 0) {
        this.stop();
      }
    };
  }

  /** Replaces the label of a wait under way. */
  private draw(): void {
    const label = [...this.labels.values()].at(-1) ?? "";
    this.frame = (this.frame + 1) % FRAMES.length;
    this.stream.write(`\r\x1b[2K${FRAMES[this.frame]} ${label}`);
    this.shown = true;
  }

  stop(): void {
    if (this.delay) {
      clearTimeout(this.delay);
    }
    if (this.timer) {
      clearInterval(this.timer);
    }
    this.delay = undefined;
    this.timer = undefined;
    if (this.shown) {
      this.stream.write("\r\x1b[2K");
    }
    this.shown = false;
  }
}

const MAX_STDIN = 64 * 1024;

/**
 * All of a stream, as it came (a request body), up to `maxBytes`: past it, a usage error naming `what`.
 * A terminal is read too, up to Ctrl-D, as `cat` reads it.
 */
export async function readAll(
  stream: NodeJS.ReadableStream,
  what: string,
  maxBytes: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.byteLength;
    if (size > maxBytes) {
      throw usageError(`${what} is larger than ${Math.floor(maxBytes / 1024 / 1024)} MiB`);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** All of stdin, without its final line break; a usage error when it is empty or huge. */
export async function readStdin(stdin: InStream, what: string): Promise<string> {
  if (stdin.isTTY) {
    throw usageError(
      `${what} is read from stdin, which is a terminal: pipe it in, e.g. from a file or a variable`,
    );
  }
  let text = "";
  for await (const chunk of stdin) {
    text += typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8");
    if (text.length > MAX_STDIN) {
      throw usageError(`${what} on stdin is longer than 64 KiB`);
    }
  }
  const value = text.replace(/\r?\n$/, "");
  if (value.trim() === "") {
    throw usageError(`${what} on stdin is empty`);
  }
  return value;
}

/**
 * Asks on stderr and reads a line from a terminal without echoing it. Ctrl-C or Ctrl-D cancels
 * (exit 2, nothing sent).
 */
export function promptHidden(question: string, stdin: InStream, stderr: OutStream): Promise<string> {
  const { setRawMode } = stdin;
  if (!stdin.isTTY || !setRawMode) {
    return Promise.reject(
      usageError(`${question.replace(/:\s*$/, "")} is needed and stdin is not a terminal`),
    );
  }
  // Echo goes off before the question is shown: an answer typed once it appears is never echoed.
  setRawMode.call(stdin, true);
  stderr.write(question);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = "";
    const done = (error?: Error) => {
      stdin.off("data", onData);
      setRawMode.call(stdin, false);
      stdin.pause();
      stderr.write("\n");
      if (error) {
        reject(error);
      } else {
        resolve(value);
      }
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of typeof chunk === "string" ? chunk : chunk.toString("utf8")) {
        if (char === "\r" || char === "\n") {
          return done();
        }
        if (char === "\u0003" || (char === "\u0004" && value === "")) {
          return done(new CliError("Cancelled: nothing was sent", EXIT.usage));
        }
        if (char === "\u007f" || char === "\b") {
          value = value.slice(0, -1);
        } else if (char >= " ") {
          value += char;
        }
      }
    };
    stdin.on("data", onData);
  });
}

/** A yes/no question on a terminal; anything but y or yes is no. */
export async function confirm(question: string, stdin: InStream, stderr: OutStream): Promise<boolean> {
  // Imported here: only a question needs it, and every command loads this module.
  const { createInterface } = await import("node:readline");
  const lines = createInterface({ input: stdin, output: stderr as NodeJS.WritableStream, terminal: true });
  try {
    const answer = await new Promise<string>((resolve) => {
      lines.question(`${question} [y/N] `, resolve);
      lines.once("close", () => resolve(""));
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    lines.close();
  }
}
