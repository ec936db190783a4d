// node:crypto, loaded on first use: a process that only reads a stored session (`engage-voice token`)
// writes no file and takes no lock, and should not pay for loading it.

/** `bytes` random bytes as hex: names of temporary files and lock tokens. */
export async function randomHex(bytes: number): Promise<string> {
  const { randomBytes } = await import("node:crypto");
  return randomBytes(bytes).toString("hex");
}

/** The SHA-256 of `text`, as hex. */
export async function sha256Hex(text: string): Promise<string> {
  const { createHash } = await import("node:crypto");
  return createHash("sha256").update(text).digest("hex");
}
