// The sandbox's fake contact center: one main account with three sub-accounts and a small users
// tree. Every value is invented; the shapes follow the Account and User schemas of the spec.

import type { Account, AgentDetail, User } from "@engage-voice/client";

export type RoleType = "SUPER_USER" | "MANAGE_USERS" | "USER" | "NO_ACCESS";

/**
 * The roles that grant each permission of the sandbox, the one home of its role rules: the handlers,
 * the start-up text and the README's table follow them.
 */
export const ROLE_RULES = {
  /** `GET /users` answers; any other caller gets `403`. */
  listUsers: ["MANAGE_USERS", "SUPER_USER"],
  /** `GET /accounts` answers every sub-account; any other caller sees its own. */
  seeEveryAccount: ["MANAGE_USERS", "SUPER_USER"],
  /** `GET /accounts` answers `403`, whatever other role the user has. */
  noAccounts: ["NO_ACCESS"],
} as const satisfies Record<string, readonly RoleType[]>;

/** Whether a user with `roles` has the permission `rule` of {@link ROLE_RULES}. */
export function hasRole(roles: readonly string[], rule: keyof typeof ROLE_RULES): boolean {
  return roles.some((role) => (ROLE_RULES[rule] as readonly string[]).includes(role));
}

export interface SeedUser {
  userId: number;
  parentId: number | null;
  userName: string;
  firstName: string;
  lastName: string;
  enabled: boolean;
  roles: readonly RoleType[];
  accountId: string;
  agentId: number;
  adminId: number;
  rcUserId: number;
  agentGroupId: number | null;
  userManagedByRC: boolean;
  creationDate: string;
  phoneNumberE164?: string;
}

export const MAIN_ACCOUNT = {
  mainAccountId: "99990000",
  mainAccountName: "Sandbox Main Account",
  rcAccountId: "37439510",
  engageAccountId: "99990000",
  // The official OpenAPI documents give the integer form; no source shows a boolean.
  isActive: 1,
} as const;

const mainFields = {
  mainAccountId: MAIN_ACCOUNT.mainAccountId,
  mainAccountName: MAIN_ACCOUNT.mainAccountName,
  mainAccount: MAIN_ACCOUNT,
};

/** The main account's sub-accounts, as `GET /voice/api/v1/admin/accounts` answers them. */
export const ACCOUNTS = [
  {
    accountId: "99990001",
    accountName: "Sandbox Sales",
    ...mainFields,
    rcAccountAccess: "REQUIRED",
    archivedAccount: false,
    startDate: "2024-01-15T00:00:00.000+0000",
    primaryTimezone: 5,
    enableInbound: true,
    enableOutbound: true,
    enableChat: false,
  },
  {
    accountId: "99990002",
    accountName: "Sandbox Support",
    ...mainFields,
    rcAccountAccess: "ENABLED",
    archivedAccount: false,
    startDate: "2024-03-01T00:00:00.000+0000",
    primaryTimezone: 5,
    enableInbound: true,
    enableOutbound: false,
    enableChat: true,
  },
  {
    accountId: "99990003",
    accountName: "Sandbox Legacy Line",
    ...mainFields,
    rcAccountAccess: "DISABLED",
    archivedAccount: false,
    startDate: "2019-06-01T00:00:00.000+0000",
    endDate: "2030-12-31T23:59:59.000+0000",
    primaryTimezone: 7,
    enableInbound: true,
    enableOutbound: true,
    enableChat: false,
  },
] as const satisfies readonly Account[];

export type AccountRecord = (typeof ACCOUNTS)[number];

const ROLE_DESCRIPTIONS: Record<RoleType, string> = {
  SUPER_USER: "Super user",
  MANAGE_USERS: "Manage users",
  USER: "User",
  NO_ACCESS: "No access",
};

/** The users tree, parents before children. */
export const USERS: readonly SeedUser[] = [
  {
    userId: 1001,
    parentId: null,
    userName: "ada.example@example.com",
    firstName: "Ada",
    lastName: "Example",
    enabled: true,
    roles: ["SUPER_USER"],
    accountId: "99990001",
    agentId: 100001,
    adminId: 500001,
    rcUserId: 400000001,
    agentGroupId: null,
    userManagedByRC: true,
    creationDate: "2024-01-15T09:30:00.000+0000",
    phoneNumberE164: "+16505550100",
  },
  {
    userId: 1002,
    parentId: 1001,
    userName: "sam.supervisor@example.com",
    firstName: "Sam",
    lastName: "Supervisor",
    enabled: true,
    roles: ["MANAGE_USERS"],
    accountId: "99990001",
    agentId: 100002,
    adminId: 500002,
    rcUserId: 400000002,
    agentGroupId: 11,
    userManagedByRC: true,
    creationDate: "2024-01-16T10:00:00.000+0000",
    phoneNumberE164: "+16505550101",
  },
  {
    userId: 1004,
    parentId: 1002,
    userName: "rob.agent@example.com",
    firstName: "Rob",
    lastName: "Agent",
    enabled: true,
    roles: ["USER"],
    accountId: "99990002",
    agentId: 100004,
    adminId: 500004,
    rcUserId: 400000004,
    agentGroupId: 12,
    userManagedByRC: true,
    creationDate: "2024-03-02T08:15:00.000+0000",
  },
  {
    userId: 1005,
    parentId: 1002,
    userName: "dee.disabled@example.com",
    firstName: "Dee",
    lastName: "Disabled",
    enabled: false,
    roles: ["USER"],
    accountId: "99990002",
    agentId: 100005,
    adminId: 500005,
    rcUserId: 400000005,
    agentGroupId: 12,
    userManagedByRC: true,
    creationDate: "2024-03-05T08:15:00.000+0000",
  },
  {
    userId: 1003,
    parentId: 1001,
    userName: "lee.legacy@example.com",
    firstName: "Lee",
    lastName: "Legacy",
    enabled: true,
    roles: ["SUPER_USER"],
    accountId: "99990003",
    agentId: 200001,
    adminId: 500003,
    rcUserId: 400000003,
    agentGroupId: 12,
    userManagedByRC: false,
    creationDate: "2019-06-01T12:00:00.000+0000",
    phoneNumberE164: "+16505550103",
  },
  {
    userId: 1006,
    parentId: 1003,
    userName: "nia.noaccess@example.com",
    firstName: "Nia",
    lastName: "NoAccess",
    enabled: true,
    roles: ["NO_ACCESS"],
    accountId: "99990003",
    agentId: 200002,
    adminId: 500006,
    rcUserId: 400000006,
    agentGroupId: null,
    userManagedByRC: false,
    creationDate: "2019-07-01T12:00:00.000+0000",
  },
];

/** Parent-platform tokens the exchange accepts by default, and whose user each one stands for. */
export const DEFAULT_PARENT_TOKENS: Readonly<Record<string, number>> = {
  "sandbox-rc-token-ada": 1001,
  "sandbox-rc-token-rob": 1004,
};

export interface LegacyLogin {
  username: string;
  password: string;
  platformId: string;
  userId: number;
}

export const DEFAULT_LEGACY_LOGINS: readonly LegacyLogin[] = [
  {
    username: "lee.legacy@example.com",
    password: "sandbox-password",
    platformId: "sandbox-platform",
    userId: 1003,
  },
];

export function findUser(userId: number): SeedUser | undefined {
  return USERS.find((user) => user.userId === userId);
}

export function accountOf(user: SeedUser): AccountRecord {
  const account = ACCOUNTS.find((a) => a.accountId === user.accountId);
  if (!account) {
    throw new Error(`seeded user ${user.userId} names an unknown account`);
  }
  return account;
}

function parentPath(user: SeedUser): string {
  const ids: number[] = [];
  let parent = user.parentId === null ? undefined : findUser(user.parentId);
  while (parent) {
    ids.unshift(parent.userId);
    parent = parent.parentId === null ? undefined : findUser(parent.parentId);
  }
  return ids.length === 0 ? "/" : `/${ids.join("/")}/`;
}

/** A North American number in both of the forms the users endpoint answers. */
function phoneNumbers(e164: string) {
  return { phoneNumber: e164.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, "($1) $2-$3"), phoneNumberE164: e164 };
}

/** A user as the users endpoint answers it, without `children`. */
export function userRecord(user: SeedUser): User {
  return {
    userId: user.userId,
    userName: user.userName,
    firstName: user.firstName,
    lastName: user.lastName,
    fullName: `${user.firstName} ${user.lastName}`,
    enabled: user.enabled,
    rootUser: user.parentId === null,
    userManagedByRC: user.userManagedByRC,
    parentPath: parentPath(user),
    creationDate: user.creationDate,
    ...(user.phoneNumberE164 ? phoneNumbers(user.phoneNumberE164) : {}),
    rcAccountId: MAIN_ACCOUNT.rcAccountId,
    rcUserId: user.rcUserId,
    regionalSettings: {
      // The integer forms of the official OpenAPI documents; the name as the users guide shows it.
      timezone: 7,
      timezoneName: "America/Los_Angeles",
      language: "en-US",
      formattingLocale: "en-US",
      homeCountry: 1,
    },
    roles: user.roles.map((roleType) => ({ roleType, description: ROLE_DESCRIPTIONS[roleType] })),
  };
}

/**
 * The users tree (`children` nested). With `activeOnly`, a disabled user is left out and its
 * children move up to its parent, so no enabled user disappears.
 */
export function usersTree(activeOnly: boolean): User[] {
  const build = (parentId: number | null): User[] =>
    USERS.filter((user) => user.parentId === parentId).flatMap((user) => {
      const children = build(user.userId);
      if (activeOnly && !user.enabled) {
        return children;
      }
      return [{ ...userRecord(user), children }];
    });
  return build(null);
}

/** The users in tree order (pre-order), without `children`. */
export function usersFlat(activeOnly: boolean): User[] {
  const flatten = (nodes: User[]): User[] =>
    nodes.flatMap(({ children, ...user }) => [user, ...flatten(children ?? [])]);
  return flatten(usersTree(activeOnly));
}

export function agentDetail(user: SeedUser): AgentDetail {
  return {
    agentId: user.agentId,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.userName,
    username: user.userName,
    agentType: "AGENT",
    rcUserId: user.rcUserId,
    accountId: user.accountId,
    accountName: accountOf(user).accountName,
    agentGroupId: user.agentGroupId,
    allowLoginControl: user.roles.includes("SUPER_USER"),
    allowLoginUpdates: user.roles.includes("SUPER_USER"),
  };
}
