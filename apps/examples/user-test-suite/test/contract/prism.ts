// The Prism mock of the published document, as `prism mock node_modules/@engage-voice/spec/dist/openapi.json
// --errors` would serve it, on a port the system gives. Prism is started as `node <its entry>`, not
// through the .bin shim, so that stopping this one process stops the server.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";

/** The document `@engage-voice/spec` ships, by the path a user types. */
export const DOCUMENT = "node_modules/@engage-voice/spec/dist/openapi.json";

export interface Mock {
  url: string;
  stop(): Promise<void>;
}

export async function startMock(): Promise<Mock> {
  const entry = createRequire(import.meta.url).resolve("@stoplight/prism-cli/dist/index.js");
  // `--errors`: a request that breaks the contract is refused (the documented 400 where there is one,
  // else 422), with the reason in `sl-violations`.
  const args = ["mock", DOCUMENT, "--errors", "-h", "127.0.0.1", "-p", "0", "-v", "info"];
  const child = spawn(process.execPath, [entry, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const stop = () => stopped(child);
  try {
    return { url: await listening(child), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The URL of Prism's "listening" line; rejects with its output if it exits first. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk;
      const url = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) {
        resolve(url);
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.once("exit", (code) => reject(new Error(`Prism exited (${code}) before it listened:\n${output}`)));
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
