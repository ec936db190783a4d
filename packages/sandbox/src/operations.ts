// The sandbox's routes come from the document's one list of operations (`operationTable`, generated
// with the client's types): each host registers a handler per operation id, typed so that an
// operation added to the document does not compile until the sandbox serves it. Wrong methods (405
// with `Allow`) and the other host's paths (404 naming the host) are derived from the same list.
import { type OperationId, type operations, operationTable } from "@engage-voice/client";
import type { Context, Hono } from "hono";
import { methodNotAllowed, otherHost } from "./host.js";
import { type HostName, pathsOf, routeOf } from "./paths.js";
import type { SandboxState } from "./state.js";

type Operation = (typeof operationTable)[number];
/** The operation ids served by `host`. */
export type OperationOf<H extends HostName> = Extract<Operation, { host: H }>["operationId"];
export type Handler = (c: Context) => Response | Promise<Response>;

type Responses<Id extends OperationId> = operations[Id]["responses"];
/**
 * The body the document declares for operation `Id`, status `S`, media type `M`. Every answer the
 * sandbox builds `satisfies` it: a change of a schema that the sandbox misses does not compile.
 */
export type Answer<
  Id extends OperationId,
  M extends string = "application/json",
  S extends keyof Responses<Id> = 200,
> = Responses<Id>[S] extends { content: { [K in M]: infer B } } ? B : never;

export function serveOperations<H extends HostName>(
  app: Hono,
  state: SandboxState,
  host: H,
  handlers: { [K in OperationOf<H>]: Handler },
): void {
  const byPath = new Map<string, string[]>();
  for (const op of operationTable) {
    if (op.host !== host) {
      continue;
    }
    const route = routeOf(op.path);
    app.on(op.method.toUpperCase(), route, handlers[op.operationId as OperationOf<H>]);
    byPath.set(route, [...(byPath.get(route) ?? []), op.method.toUpperCase()]);
  }
  for (const [route, methods] of byPath) {
    const allow = methods.sort().join(", ");
    app.all(route, (c) => methodNotAllowed(c, state, allow));
  }
  const other: HostName = host === "main" ? "legacy" : "main";
  for (const route of pathsOf(other)) {
    app.all(route, (c) => otherHost(c, state, other));
  }
}
