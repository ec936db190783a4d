// `pnpm --filter @engage-voice/bench render`: BENCHMARKS.md again from results.json and the size budgets,
// measuring nothing. For a change to the rendering or to size-budget.json; new figures need `pnpm bench`.
import { writeFile } from "node:fs/promises";
import { loadBudgets } from "./budget.ts";
import { renderBenchmarks } from "./render.ts";
import { BENCHMARKS_FILE, readResults } from "./results.ts";

await writeFile(BENCHMARKS_FILE, renderBenchmarks(await readResults(), await loadBudgets()));
console.log(`Wrote ${BENCHMARKS_FILE} from apps/bench/results.json`);
