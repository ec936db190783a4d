// What the CLI prints of a permanent API token; its shape is the client's `isPermanentApiToken`.

/** `sbx01:…c0ffee`: enough to recognise a token, not enough to use it. */
export function maskToken(value: string): string {
  const [prefix] = value.split(":");
  return `${prefix}:…${value.slice(-4)}`;
}
