// The rows of the size section, in the order of the table: every own entry (budgeted), then the
// references; a bundle that fails for the browser is followed by its node row. The bench writes
// them to results.json, and the budget test measures them again to hold that file to the build.
import { loadExclusions } from "./budget.ts";
import { isSize, measureSize, ownEntries, REFERENCE_ENTRIES, type Size, type SizeFailure } from "./sizes.ts";

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
