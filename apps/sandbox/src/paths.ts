import { operationTable } from "@engage-voice/client";

/** The paths each host serves (Hono's `:param` form), from the document's list of operations. */
const routesOf = (host: "main" | "legacy") =>
  Object.fromEntries(
    operationTable
      .filter((op) => op.host === host)
      .map((op) => [op.operationId, op.path.replace(/\{(\w+)\}/g, ":$1")]),
  ) as Record<string, string>;

export const MAIN_PATHS = routesOf("main");
export const LEGACY_PATHS = routesOf("legacy");

/** Where fault injection is controlled over HTTP; it exists only while faults are enabled. */
export const FAULTS_PATH = "/__sandbox/faults";

export type HostName = "main" | "legacy";

export const HOST_TITLES: Record<HostName, string> = {
  main: "the contact-center host",
  legacy: "the deprecated login host",
};
