/** The operations each host serves, as the specification places them. */
export const MAIN_PATHS = {
  exchange: "/api/auth/login/rc/accesstoken",
  refresh: "/api/auth/token/refresh",
  accounts: "/voice/api/v1/admin/accounts",
  users: "/voice/api/v1/admin/users",
} as const;

export const LEGACY_PATHS = {
  login: "/api/auth/login/admin",
  tokens: "/voice/api/v1/admin/token",
  token: "/voice/api/v1/admin/token/:apiToken",
} as const;

/** Where fault injection is controlled over HTTP; it exists only while faults are enabled. */
export const FAULTS_PATH = "/__sandbox/faults";

export type HostName = "main" | "legacy";

export const HOST_TITLES: Record<HostName, string> = {
  main: "the contact-center host",
  legacy: "the deprecated login host",
};
