// The shape of a permanent API token: the document's `PermanentApiToken`, `<prefix>:<uuid-like id>`.
// One rule for what the CLI takes (delete) and what it prints (create).

// Visible ASCII only: the prefix is printed (masked) and the whole token by create.
const PERMANENT_TOKEN = /^[\x21-\x7e]+$/;
const SHAPE = /^[^:/?#%]+:[0-9A-Za-z-]+$/;

export function isPermanentToken(value: unknown): value is string {
  return typeof value === "string" && PERMANENT_TOKEN.test(value) && SHAPE.test(value);
}

/** `sbx01:…c0ffee`: enough to recognise a token, not enough to use it. */
export function maskToken(value: string): string {
  const [prefix] = value.split(":");
  return `${prefix}:…${value.slice(-4)}`;
}
