import { EngageVoiceAuthError, VERBOSE } from "./errors.js";

/**
 * What a tenant id may hold: it names Redis keys (inside a `{hash tag}`), file names and log lines,
 * so no braces, separators of keys or paths, spaces or control characters can reach them.
 */
export const TENANT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * What a refused value was, said without quoting it: a string in the wrong place may be a pasted
 * credential. Its type, or a string's length.
 */
export const kindOf = (value: unknown) =>
  typeof value === "string"
    ? `a string of ${value.length} character${value.length === 1 ? "" : "s"}`
    : value === null
      ? "null"
      : typeof value;

/** What was given instead of a tenant id: its kind, and which part of the rule a string breaks. */
const gotten = (value: unknown) =>
  `${kindOf(value)}${typeof value !== "string" || value === "" ? "" : /[^A-Za-z0-9._-]/.test(value) ? " with a character outside that set" : value.length > 100 ? "" : " that does not start with a letter or digit"}`;

/** The tenant id when it is one, or a typed error that says what a tenant id may hold. */
export function requireTenant(value: unknown, name = "tenant"): string {
  if (typeof value !== "string" || !TENANT_PATTERN.test(value)) {
    throw new EngageVoiceAuthError(
      "invalid_options",
      VERBOSE
        ? `${name} must be 1 to 100 letters, digits, dots, underscores or hyphens, starting with a letter or digit (it names store keys and log lines); got ${gotten(value)}`
        : name,
    );
  }
  return value;
}

/**
 * A token set that belongs to another tenant than the manager that read it, or an answer for another
 * account than the tenant's session: handing it out would serve one customer another's data.
 */
export class TenantMismatchError extends EngageVoiceAuthError {
  declare readonly code: "tenant_mismatch";
  override readonly name = "TenantMismatchError";
}

/** The stored set belongs to `found` (or to no tenant), not to `tenant`. */
export function storedForAnother(tenant: string, found: unknown): TenantMismatchError {
  const whose = typeof found === "string" && TENANT_PATTERN.test(found) ? `tenant "${found}"` : "no tenant";
  return new TenantMismatchError(
    "tenant_mismatch",
    VERBOSE
      ? `The token store of tenant "${tenant}" holds a token set of ${whose}: it was not used. Give each tenant a store of its own (redisStore({ tenant }), a fileStore path per tenant), or let createTenantPool() derive them; to recover, clear the store (logout() of this manager does) so that it exchanges again`
      : `tenant ${tenant}`,
  );
}

/** A token call for `tenant` answered for another main account than its session's. */
export function answeredForAnother(tenant: string): TenantMismatchError {
  return new TenantMismatchError(
    "tenant_mismatch",
    VERBOSE
      ? `The token call of tenant "${tenant}" answered for another main account than the tenant's session: its tokens were not used. Check that rcAccessToken gives this tenant's parent token (a tenant id must name one customer's credentials only); if the tenant's login changed on purpose, call logout() first, and update mainAccountId if you set it`
      : `tenant ${tenant}`,
  );
}

/** The stored set of `tenant` is a session of another main account than the tenant's. */
export function storedForAnotherAccount(tenant: string): TenantMismatchError {
  return new TenantMismatchError(
    "tenant_mismatch",
    VERBOSE
      ? `The token store of tenant "${tenant}" holds a session of another main account than the tenant's: it was not used. Two customers' credentials share the tenant id "${tenant}": give each customer a tenant id of its own. To recover, fix the mapping, then call logout() on the manager whose credentials are right (it clears the store) so that it exchanges again`
      : `tenant ${tenant}`,
  );
}
