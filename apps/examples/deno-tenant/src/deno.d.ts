// The few Deno APIs that server.ts uses, declared for tsc, which checks here how the server uses our
// packages; Deno runs the file with its own, complete types. (`deno check` would read them too, but in
// this workspace it sees the linked packages as local files and cannot pair their .js and .d.ts.)
declare namespace Deno {
  const env: { get(name: string): string | undefined };
  function exit(code?: number): never;
  function addSignalListener(signal: "SIGINT" | "SIGTERM", handler: () => void): void;
  function serve(
    options: { hostname: string; port: number; onListen?(address: { hostname: string; port: number }): void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { shutdown(): Promise<void>; finished: Promise<void> };
}
