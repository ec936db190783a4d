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

export async function loadBudgets(file: URL = BUDGET_FILE): Promise<Budget[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new BudgetFileError(`cannot read ${file.pathname}: ${(error as Error).message}`);
  }
  return parseBudgets(json);
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
