// HS256 JSON Web Tokens with WebCrypto only, so the app runs unchanged in Node, Bun, Deno and workers.

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) {
    return undefined;
  }
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function decodeJson(part: string): unknown {
  const bytes = base64UrlDecode(part);
  if (!bytes) {
    return undefined;
  }
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
}

export interface JwtClaims {
  sub: string;
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

export type VerifyResult = { ok: true; claims: JwtClaims } | { ok: false; reason: "invalid" | "expired" };

const HEADER = base64UrlEncode(encoder.encode(JSON.stringify({ alg: "HS256", typ: "JWT" })));

/**
 * How many verified tokens a signer remembers. A user's CI sends one token for hundreds of calls,
 * and a few processes each have their own: past this many the oldest is checked afresh.
 */
export const VERIFIED_TOKENS = 1024;

/**
 * Signs and verifies with one random key, made per sandbox: tokens of another sandbox are unknown.
 * A token it signed or verified is remembered with its claims, so a call costs a map look-up and
 * the `exp` check, not an HMAC and a JSON parse: the signature of a given text does not change.
 */
export class JwtSigner {
  readonly #key: Promise<CryptoKey>;
  /** Token text -> claims, oldest first. Only tokens whose signature and claims were good. */
  readonly #verified = new Map<string, JwtClaims>();

  constructor() {
    const secret = crypto.getRandomValues(new Uint8Array(32));
    this.#key = crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
  }

  async sign(claims: JwtClaims): Promise<string> {
    const payload = base64UrlEncode(encoder.encode(JSON.stringify(claims)));
    const input = `${HEADER}.${payload}`;
    const signature = await crypto.subtle.sign("HMAC", await this.#key, encoder.encode(input));
    const token = `${input}.${base64UrlEncode(new Uint8Array(signature))}`;
    this.#remember(token, claims);
    return token;
  }

  #remember(token: string, claims: JwtClaims): void {
    if (this.#verified.size >= VERIFIED_TOKENS) {
      this.#verified.delete(this.#verified.keys().next().value as string);
    }
    this.#verified.set(token, claims);
  }

  /** `exp` against `nowMs`: the sandbox's clock, which a test may move, decides on every call. */
  #inForce(claims: JwtClaims, nowMs: number): VerifyResult {
    return nowMs >= claims.exp * 1000 ? { ok: false, reason: "expired" } : { ok: true, claims };
  }

  /** Checks the signature first, then `exp` against `nowMs`: a forged token is never "expired". */
  async verify(token: string, nowMs: number): Promise<VerifyResult> {
    const known = this.#verified.get(token);
    if (known) {
      return this.#inForce(known, nowMs);
    }
    const parts = token.split(".");
    if (parts.length !== 3) {
      return { ok: false, reason: "invalid" };
    }
    const [header, payload, signature] = parts as [string, string, string];
    const signatureBytes = base64UrlDecode(signature);
    if (!signatureBytes || header !== HEADER) {
      return { ok: false, reason: "invalid" };
    }
    const valid = await crypto.subtle.verify(
      "HMAC",
      await this.#key,
      signatureBytes,
      encoder.encode(`${header}.${payload}`),
    );
    if (!valid) {
      return { ok: false, reason: "invalid" };
    }
    const claims = decodeJson(payload) as Partial<JwtClaims> | undefined;
    if (typeof claims?.sub !== "string" || typeof claims.exp !== "number" || typeof claims.iat !== "number") {
      return { ok: false, reason: "invalid" };
    }
    this.#remember(token, claims as JwtClaims);
    return this.#inForce(claims as JwtClaims, nowMs);
  }
}

/** Reads the claims without checking anything: for tests and for callers that only look at `exp`. */
export function decodeClaims(token: string): JwtClaims | undefined {
  const payload = token.split(".")[1];
  return payload === undefined ? undefined : (decodeJson(payload) as JwtClaims | undefined);
}
