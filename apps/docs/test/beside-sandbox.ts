// A page of the built docs served as `pnpm start` serves it: the sandbox running, and the page's
// sandbox addresses filled in on the way out (`fillSandbox`), every other file as built.
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { serveStatic } from "@engage-voice/test-kit/servers";
// @ts-expect-error: plain ES modules without declarations
import { fillSandbox } from "../scripts/sandbox-page.mjs";

export interface BesideSandbox {
  sandbox: RunningSandbox;
  docs: { url: string; stop: () => Promise<void> };
  stop(): Promise<void>;
}

export async function serveBesideSandbox(
  dist: URL,
  page: string,
  fill: { mockUrl?: string } = {},
): Promise<BesideSandbox> {
  const sandbox = await startSandbox();
  const docs = await serveStatic(new URL(".", dist).pathname, {
    transform: (pathname: string, body: Buffer) =>
      pathname === page ? fillSandbox(body.toString("utf8"), sandbox, fill) : body,
  });
  return {
    sandbox,
    docs,
    stop: async () => {
      await docs.stop();
      await sandbox.stop();
    },
  };
}
