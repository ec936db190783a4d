// The rows of the size section, in the order of the table: every own entry (budgeted), then the
// references; a bundle that fails for the browser is followed by its node row. The bench writes
// them to results.json, and the budget test measures them again to hold that file to the build.
import { loadExclusions } from "./budget.ts";
import {
  FLOOR_ENTRY,
  isSize,
  measureOptIns,
  measureSize,
  type OptInCost,
  ownEntries,
  REFERENCE_ENTRIES,
  type Size,
  type SizeFailure,
} from "./sizes.ts";

/** Beside the app's imports (a row of the size table): its floor and what each opt-in feature adds. */
export interface AppRows {
  floor: Size | SizeFailure;
  optIns: (OptInCost | SizeFailure)[];
}

export async function measureAppRows(): Promise<AppRows> {
  return { floor: await measureSize(FLOOR_ENTRY, "browser"), optIns: await measureOptIns() };
}

export async function measureSizeRows(): Promise<(Size | SizeFailure)[]> {
  const rows: (Size | SizeFailure)[] = [];
  for (const entry of [...(await ownEntries(await loadExclusions())), ...REFERENCE_ENTRIES]) {
    const size = await measureSize(entry, "browser");
    rows.push(size);
    if (!isSize(size)) {
      rows.push(await measureSize(entry, "node"));
    }
  }
  return rows;
}
