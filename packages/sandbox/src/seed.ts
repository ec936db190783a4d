// The sandbox's fake contact center: one main account with three sub-accounts and a small users
// tree, and as many more tenants (main accounts) as the `tenants` option asks for, each a copy of
// the first under its own ids. Every value is invented; the shapes follow the Account and User
// schemas of the spec.

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

/** What every seeded parent-platform token starts with; a tenant's insert `tenant-<i>-` after it. */
export const PARENT_TOKEN_PREFIX = "sandbox-rc-token-";

/** Parent-platform tokens the exchange accepts by default, and whose user each one stands for. */
export const DEFAULT_PARENT_TOKENS: Readonly<Record<string, number>> = {
  [`${PARENT_TOKEN_PREFIX}ada`]: 1001,
  [`${PARENT_TOKEN_PREFIX}rob`]: 1004,
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

/**
 * One main account with its sub-accounts and users: tenant 0 is the seed above; tenant i (1 to the
 * `tenants` option) is a copy of it under ids of its own (see {@link tenantOf}).
 */
/** An account as seeded: its id and name always set. */
export type SeedAccount = Account & { accountId: string; accountName: string };

export interface Tenant {
  index: number;
  mainAccount: {
    mainAccountId: string;
    mainAccountName: string;
    rcAccountId: string;
    engageAccountId: string;
    isActive: number;
  };
  accounts: readonly SeedAccount[];
  /** Parents before children. */
  users: readonly SeedUser[];
}

/**
 * The most tenants a sandbox seeds: tenant ids put the index in front of the seeded ones (below),
 * and the longest, a parent-platform user id of 9 digits, must stay a safe integer in JSON.
 */
export const MAX_TENANTS = 1_000_000;

/**
 * Tenant `index`'s form of a seeded id: the index written in front (tenant 3's user 1001 is 31001,
 * its account 99990001 is 399990001), so every tenant's ids are distinct and tell whose they are.
 * `index` may be a placeholder such as `<i>`, for text that describes every tenant at once.
 */
export function tenantId(index: number | string, id: string | number): string {
  return index === 0 ? String(id) : `${index}${id}`;
}

/** Tenant `index`'s form of a seeded e-mail address: `ada.example@tenant-3.example.com`. */
export function tenantEmail(index: number | string, email: string): string {
  return index === 0 ? email : email.replace(/@/, `@tenant-${index}.`);
}

/** Tenant `index`'s form of a seeded parent token: `sandbox-rc-token-tenant-3-ada`. */
export function tenantParentToken(index: number | string, token: string): string {
  return index === 0 ? token : token.replace(PARENT_TOKEN_PREFIX, `${PARENT_TOKEN_PREFIX}tenant-${index}-`);
}

/** The index and seeded form of what {@link tenantParentToken} or {@link tenantEmail} made. */
const TENANT_TOKEN = new RegExp(`^${PARENT_TOKEN_PREFIX}tenant-([1-9]\\d*)-(.+)$`);
const TENANT_EMAIL = /^([^@]+)@tenant-([1-9]\d*)\.(.+)$/;

const tenantSuffix = (index: number) => (index === 0 ? "" : ` (tenant ${index})`);

function buildTenant(index: number): Tenant {
  const id = (value: string) => tenantId(index, value);
  const num = (value: number) => Number(tenantId(index, value));
  const mainAccount = {
    ...MAIN_ACCOUNT,
    mainAccountId: id(MAIN_ACCOUNT.mainAccountId),
    mainAccountName: `${MAIN_ACCOUNT.mainAccountName}${tenantSuffix(index)}`,
    rcAccountId: id(MAIN_ACCOUNT.rcAccountId),
    engageAccountId: id(MAIN_ACCOUNT.engageAccountId),
  };
  const accounts = ACCOUNTS.map((account) => ({
    ...account,
    accountId: id(account.accountId),
    accountName: `${account.accountName}${tenantSuffix(index)}`,
    mainAccountId: mainAccount.mainAccountId,
    mainAccountName: mainAccount.mainAccountName,
    mainAccount,
  }));
  const users = USERS.map((user) => ({
    ...user,
    userId: num(user.userId),
    parentId: user.parentId === null ? null : num(user.parentId),
    userName: tenantEmail(index, user.userName),
    accountId: id(user.accountId),
    agentId: num(user.agentId),
    adminId: num(user.adminId),
    rcUserId: num(user.rcUserId),
    agentGroupId: user.agentGroupId === null ? null : num(user.agentGroupId),
  }));
  return { index, mainAccount, accounts, users };
}

/** The seed above as tenant 0, built once: the sandbox without `tenants` reads only this. */
const FIRST_TENANT: Tenant = { index: 0, mainAccount: MAIN_ACCOUNT, accounts: ACCOUNTS, users: USERS };

/**
 * The tenants of one sandbox. Nothing is stored per tenant: a tenant is built from its index when
 * a request names one of its credentials (a few objects), so ten thousand tenants cost no more
 * memory or start-up time than one.
 */
export class Tenants {
  constructor(
    /** Tenants seeded beside tenant 0. */
    readonly count: number,
  ) {}

  has(index: number): boolean {
    return Number.isSafeInteger(index) && index >= 0 && index <= this.count;
  }

  /** Tenant `index`, or `undefined` outside 0 to {@link count}. */
  tenant(index: number): Tenant | undefined {
    if (!this.has(index)) {
      return undefined;
    }
    return index === 0 ? FIRST_TENANT : buildTenant(index);
  }

  /** The tenant and seeded user a user id names (tenant 0's ids as seeded, others with the index in front). */
  #locate(userId: number): { index: number; seeded: SeedUser } | undefined {
    const text = String(userId);
    for (const seeded of USERS) {
      const own = String(seeded.userId);
      const prefix = text.slice(0, -own.length);
      if (text === own) {
        return { index: 0, seeded };
      }
      if (text.endsWith(own) && /^[1-9]\d*$/.test(prefix) && this.has(Number(prefix))) {
        return { index: Number(prefix), seeded };
      }
    }
    return undefined;
  }

  user(userId: number): SeedUser | undefined {
    const found = this.#locate(userId);
    return found && this.tenant(found.index)?.users.find((user) => user.userId === userId);
  }

  /** The tenant of a user of this sandbox. */
  tenantOf(user: SeedUser): Tenant {
    const found = this.#locate(user.userId);
    const tenant = found && this.tenant(found.index);
    if (!tenant) {
      throw new Error(`user ${user.userId} belongs to no tenant of this sandbox`);
    }
    return tenant;
  }

  /** The user a tenant's seeded parent token stands for (`sandbox-rc-token-tenant-3-ada`). */
  parentTokenUser(token: string): SeedUser | undefined {
    const match = TENANT_TOKEN.exec(token);
    const index = Number(match?.[1]);
    const seeded = `${PARENT_TOKEN_PREFIX}${match?.[2]}`;
    if (!match || !this.has(index) || !Object.hasOwn(DEFAULT_PARENT_TOKENS, seeded)) {
      return undefined;
    }
    return this.user(Number(tenantId(index, DEFAULT_PARENT_TOKENS[seeded] as number)));
  }

  /** A tenant's seeded direct login (`lee.legacy@tenant-3.example.com`, the seeded password and platform). */
  legacyLogin(username: string, password: string, platformId: string): SeedUser | undefined {
    const match = TENANT_EMAIL.exec(username);
    const index = Number(match?.[2]);
    if (!match || !this.has(index)) {
      return undefined;
    }
    const seeded = DEFAULT_LEGACY_LOGINS.find(
      (login) =>
        login.username === `${match[1]}@${match[3]}` &&
        login.password === password &&
        login.platformId === platformId,
    );
    return seeded && this.user(Number(tenantId(index, seeded.userId)));
  }
}

/** A user of tenant 0 (the seed above). */
export function findUser(userId: number): SeedUser | undefined {
  return USERS.find((user) => user.userId === userId);
}

function accountOf(tenant: Tenant, user: SeedUser): SeedAccount {
  const account = tenant.accounts.find((a) => a.accountId === user.accountId);
  if (!account) {
    throw new Error(`seeded user ${user.userId} names an unknown account`);
  }
  return account;
}

function parentPath(tenant: Tenant, user: SeedUser): string {
  const byId = (id: number | null) => (id === null ? undefined : tenant.users.find((u) => u.userId === id));
  const ids: number[] = [];
  let parent = byId(user.parentId);
  while (parent) {
    ids.unshift(parent.userId);
    parent = byId(parent.parentId);
  }
  return ids.length === 0 ? "/" : `/${ids.join("/")}/`;
}

/** A North American number in both of the forms the users endpoint answers. */
function phoneNumbers(e164: string) {
  return { phoneNumber: e164.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, "($1) $2-$3"), phoneNumberE164: e164 };
}

/** A user of `tenant` as the users endpoint answers it, without `children`. */
export function userRecord(tenant: Tenant, user: SeedUser): User {
  return {
    userId: user.userId,
    userName: user.userName,
    firstName: user.firstName,
    lastName: user.lastName,
    fullName: `${user.firstName} ${user.lastName}`,
    enabled: user.enabled,
    rootUser: user.parentId === null,
    userManagedByRC: user.userManagedByRC,
    parentPath: parentPath(tenant, user),
    creationDate: user.creationDate,
    ...(user.phoneNumberE164 ? phoneNumbers(user.phoneNumberE164) : {}),
    rcAccountId: tenant.mainAccount.rcAccountId,
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
 * The users tree of `tenant` (`children` nested). With `activeOnly`, a disabled user is left out and
 * its children move up to its parent, so no enabled user disappears.
 */
export function usersTree(tenant: Tenant, activeOnly: boolean): User[] {
  const build = (parentId: number | null): User[] =>
    tenant.users
      .filter((user) => user.parentId === parentId)
      .flatMap((user) => {
        const children = build(user.userId);
        if (activeOnly && !user.enabled) {
          return children;
        }
        return [{ ...userRecord(tenant, user), children }];
      });
  return build(null);
}

/** The users of `tenant` in tree order (pre-order), without `children`. */
export function usersFlat(tenant: Tenant, activeOnly: boolean): User[] {
  const flatten = (nodes: User[]): User[] =>
    nodes.flatMap(({ children, ...user }) => [user, ...flatten(children ?? [])]);
  return flatten(usersTree(tenant, activeOnly));
}

export function agentDetail(tenant: Tenant, user: SeedUser): AgentDetail {
  return {
    agentId: user.agentId,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.userName,
    username: user.userName,
    agentType: "AGENT",
    rcUserId: user.rcUserId,
    accountId: user.accountId,
    accountName: accountOf(tenant, user).accountName,
    agentGroupId: user.agentGroupId,
    allowLoginControl: user.roles.includes("SUPER_USER"),
    allowLoginUpdates: user.roles.includes("SUPER_USER"),
  };
}
