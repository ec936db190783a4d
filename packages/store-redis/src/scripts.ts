import type { RedisLike } from "./client.js";

/** A Lua script, sent by its SHA-1 once the server has it. */
export interface Script {
  readonly source: string;
  /** The hex SHA-1 of the source, computed once (Web Crypto: Node 20+, Bun, Deno). */
  sha(): Promise<string>;
}

export function script(source: string): Script {
  let sha: Promise<string> | undefined;
  return {
    source,
    sha: () => {
      sha ??= crypto.subtle
        .digest("SHA-1", new TextEncoder().encode(source))
        .then((digest) =>
          Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join(""),
        );
      return sha;
    },
  };
}

/** The server does not have the script (it never had it, restarted, or was told SCRIPT FLUSH). */
function isNoScript(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" && message.trimStart().startsWith("NOSCRIPT");
}

/**
 * EVALSHA, and EVAL when the server answers NOSCRIPT: EVAL runs the script and leaves it loaded, so
 * each server (each node of a cluster) is sent a script's source once, not with every command.
 */
export async function runScript(
  client: RedisLike,
  { source, sha }: Script,
  options: { keys: string[]; arguments: string[] },
): Promise<unknown> {
  try {
    return await client.evalSha(await sha(), options);
  } catch (error) {
    if (!isNoScript(error)) {
      throw error;
    }
    return client.eval(source, options);
  }
}
