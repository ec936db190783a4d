/**
 * A user's roles as one cell of the users table. The public sources disagree on their form (plain
 * strings in two official documents and the prose, `{ roleType }` objects in the third), so both are
 * read; anything else is left out rather than printed as `[object Object]`.
 */
export function roleNames(roles: unknown): string {
  if (!Array.isArray(roles)) {
    return "";
  }
  const names: string[] = [];
  for (const role of roles) {
    if (typeof role === "string") {
      names.push(role);
    } else if (
      typeof role === "object" &&
      role !== null &&
      typeof (role as { roleType?: unknown }).roleType === "string"
    ) {
      names.push((role as { roleType: string }).roleType);
    }
  }
  return names.join(",");
}
