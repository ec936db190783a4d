import { operationTable } from "@engage-voice/client";

/** `/voice/api/v1/admin/token/{apiToken}` as Hono writes it: `/voice/api/v1/admin/token/:apiToken`. */
export const routeOf = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

/** The document's paths of `host`, as routes. */
export const pathsOf = (host: HostName): string[] => [
  ...new Set(operationTable.filter((op) => op.host === host).map((op) => routeOf(op.path))),
];

const routesOf = (host: HostName) =>
  Object.fromEntries(
    operationTable.filter((op) => op.host === host).map((op) => [op.operationId, routeOf(op.path)]),
  ) as Record<string, string>;

/** The routes of the contact-center host, by operation id (`{ listAccounts: "/voice/api/v1/admin/accounts", … }`). */
export const MAIN_PATHS = routesOf("main");
/** The routes of the deprecated login host, by operation id (`{ deleteApiToken: "…/token/:apiToken", … }`). */
export const LEGACY_PATHS = routesOf("legacy");

/** Where fault injection is controlled over HTTP; it exists only while faults are enabled. */
export const FAULTS_PATH = "/__sandbox/faults";

export type HostName = "main" | "legacy";

export const HOST_TITLES: Record<HostName, string> = {
  main: "the contact-center host",
  legacy: "the deprecated login host",
};
