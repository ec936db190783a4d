// How `api` prints an answer: the body on stdout (JSON indented on a terminal, on one line in a pipe,
// as gh api prints it), the status line and headers with --include, an error's body on stderr.
import { jsonText, printable } from "../../terminal.js";

const isJson = (contentType: string | null) => /[/+]json\b/i.test(contentType ?? "");

function parsed(text: string, contentType: string | null): { json: unknown } | undefined {
  if (!isJson(contentType)) {
    return undefined;
  }
  try {
    return { json: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Each line made printable (so a terminal shows the text and acts on none of it). */
const printableLines = (text: string) => text.split("\n").map(printable).join("\n");

/**
 * A success's body for stdout: JSON through the CLI's JSON writer (its unprintable characters
 * escaped), indented on a terminal; other text as it came in a pipe, made printable on a terminal.
 * An empty body prints nothing; any other ends with a line break.
 */
export function answerText(text: string, contentType: string | null, terminal: boolean): string {
  if (text === "") {
    return "";
  }
  const json = parsed(text, contentType);
  if (json) {
    return jsonText(json.json, terminal);
  }
  const shown = terminal ? printableLines(text) : text;
  return shown.endsWith("\n") ? shown : `${shown}\n`;
}

/** Headers that carry a credential: never printed, whoever sent them. */
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "x-auth-token", "set-cookie", "cookie"];

/** `--include`: the status line and the headers (a credential's left out), then an empty line. */
export function headerLines(response: Response): string {
  const lines = [`HTTP ${response.status} ${printable(response.statusText)}`.trimEnd()];
  for (const [name, value] of response.headers) {
    if (!CREDENTIAL_HEADERS.includes(name.toLowerCase())) {
      lines.push(`${printable(name)}: ${printable(value)}`);
    }
  }
  return `${lines.join("\n")}\n\n`;
}

/**
 * A failure's body for stderr, as one line of JSON (a text body as a JSON string), with every
 * credential the command holds and every value written in its path cut out: a host may echo them.
 */
export function errorLine(text: string, contentType: string | null, hidden: readonly string[]): string {
  let cut = text;
  // Longest first, so that a value holding another is cut whole.
  for (const secret of [...hidden].sort((a, b) => b.length - a.length)) {
    cut = cut.split(secret).join("[hidden]");
  }
  const json = parsed(cut, contentType);
  return jsonText(json ? json.json : cut, false);
}
