import { afterEach } from "vitest";

/**
 * An opener for servers that are stopped after the current test: `const open = stoppedAfterEach(startSandbox)`.
 * Call it at a module's top level, where vitest's hooks can be registered.
 */
export function stoppedAfterEach<A extends unknown[], S extends { stop(): Promise<void> }>(
  start: (...args: A) => Promise<S>,
): (...args: A) => Promise<S> {
  const running: S[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.stop()));
  });
  return async (...args) => {
    const server = await start(...args);
    running.push(server);
    return server;
  };
}
