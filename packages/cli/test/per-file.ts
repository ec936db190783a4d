// Run before each test file (vitest's setupFiles). The files share their workers, so helpers.ts is
// loaded once per worker: what it keeps for one file is reset and removed here, for every file.
import { afterAll, beforeAll } from "vitest";
import { removeTempHomes, transcript } from "./helpers.js";

beforeAll(() => {
  // Each file's secret scan reads the outputs of its own processes only.
  transcript.length = 0;
});
// Nothing is left in the system's temp folder.
afterAll(removeTempHomes);
