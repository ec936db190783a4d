// Size budgets: limits in bytes for the minified and the minified+gzip bundle of each entry.
import { readFile } from "node:fs/promises";
import { isSize, type Size, type SizeFailure } from "./sizes.ts";

export interface Budget {
  name: string;
  minified: number;
  gzip: number;
}

/** Raised for a budget file that cannot be used; names the field at fault. */
export class BudgetFileError extends Error {
  override readonly name = "BudgetFileError";
  readonly code = "invalid_budget_file";
}

export const BUDGET_FILE = new URL("../size-budget.json", import.meta.url);

function limit(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    throw new BudgetFileError(`${where} must be a positive whole number of bytes`);
  }
  return value;
}

/** Reads and checks the budget file: `{ "budgets": [{ "name", "minified", "gzip" }] }`. */
export function parseBudgets(json: unknown): Budget[] {
  const list = (json as { budgets?: unknown } | null)?.budgets;
  if (!Array.isArray(list) || list.length === 0) {
    throw new BudgetFileError("budgets must be a non-empty array");
  }
  return list.map((item: unknown, index) => {
    const entry = item as Partial<Record<keyof Budget, unknown>> | null;
    if (typeof entry?.name !== "string" || entry.name === "") {
      throw new BudgetFileError(`budgets[${index}].name must be a package or bundle name`);
    }
    return {
      name: entry.name,
      minified: limit(entry.minified, `budgets[${index}].minified`),
      gzip: limit(entry.gzip, `budgets[${index}].gzip`),
    };
  });
}

/**
 * `excluded` of the budget file: a public package that has no browser bundle to measure, with the
 * reason. Optional; each reason must be written out.
 */
export function parseExclusions(json: unknown): Record<string, string> {
  const excluded = (json as { excluded?: unknown } | null)?.excluded ?? {};
  if (typeof excluded !== "object" || excluded === null || Array.isArray(excluded)) {
    throw new BudgetFileError("excluded must be an object of package name to the reason it is not measured");
  }
  for (const [name, reason] of Object.entries(excluded)) {
    if (typeof reason !== "string" || reason.trim().length < 10) {
      throw new BudgetFileError(`excluded["${name}"] must say why the package has no browser bundle`);
    }
  }
  return excluded as Record<string, string>;
}

async function readBudgetFile(file: URL): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new BudgetFileError(`cannot read ${file.pathname}: ${(error as Error).message}`);
  }
}

export async function loadBudgets(file: URL = BUDGET_FILE): Promise<Budget[]> {
  return parseBudgets(await readBudgetFile(file));
}

export async function loadExclusions(file: URL = BUDGET_FILE): Promise<Record<string, string>> {
  return parseExclusions(await readBudgetFile(file));
}

/**
 * What is wrong with the coverage of the public packages: one that is neither measured (a budget of
 * its name) nor excluded, one that is both, and an exclusion or budget for a package that is no
 * longer public. Empty when every public package is accounted for once.
 */
export function coverageProblems(
  publicNames: readonly string[],
  budgets: readonly Budget[],
  excluded: Readonly<Record<string, string>>,
): string[] {
  const budgeted = new Set(budgets.map((b) => b.name));
  const problems: string[] = [];
  for (const name of publicNames) {
    if (!budgeted.has(name) && !(name in excluded)) {
      problems.push(`${name} is public but has no budget and no exclusion in size-budget.json`);
    }
    if (budgeted.has(name) && name in excluded) {
      problems.push(`${name} has a budget and is excluded: keep one`);
    }
  }
  for (const name of Object.keys(excluded)) {
    if (!publicNames.includes(name)) {
      problems.push(`${name} is excluded but is not a public workspace package`);
    }
  }
  for (const name of budgeted) {
    if (name.startsWith("@") && !name.includes(" ") && !publicNames.includes(name)) {
      problems.push(`${name} has a budget but is not a public workspace package`);
    }
  }
  return problems;
}

export interface BudgetResult {
  name: string;
  size?: Size;
  budget: Budget;
  /** Why the entry fails its budget; empty when it passes. */
  problems: string[];
}

/** Holds each budget against the measured bundle of the same name; a missing or failed bundle fails. */
export function checkBudgets(
  sizes: readonly (Size | SizeFailure)[],
  budgets: readonly Budget[],
): BudgetResult[] {
  return budgets.map((budget) => {
    const measured = sizes.find((s) => s.name === budget.name);
    if (!measured) {
      return { name: budget.name, budget, problems: ["no bundle was measured"] };
    }
    if (!isSize(measured)) {
      return { name: budget.name, budget, problems: [`could not be bundled: ${measured.errors.join("; ")}`] };
    }
    const problems: string[] = [];
    if (measured.minified > budget.minified) {
      problems.push(`minified ${measured.minified} B is over its budget of ${budget.minified} B`);
    }
    if (measured.gzip > budget.gzip) {
      problems.push(`min+gzip ${measured.gzip} B is over its budget of ${budget.gzip} B`);
    }
    return { name: budget.name, size: measured, budget, problems };
  });
}

/** One line per entry, for the test output and the bench. */
export function formatBudgetResults(results: readonly BudgetResult[]): string[] {
  return results.map((r) => {
    const figures = r.size
      ? `${r.size.minified} / ${r.budget.minified} B minified, ${r.size.gzip} / ${r.budget.gzip} B min+gzip`
      : "not measured";
    return `${r.problems.length ? "FAIL" : "ok  "} ${r.name}: ${figures}${r.problems.length ? ` (${r.problems.join("; ")})` : ""}`;
  });
}
