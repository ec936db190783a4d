// The public packages, from the test kit's one reader of the workspace (the matrix uses it too).
import { fileURLToPath } from "node:url";
import { publicPackages as read, type WorkspacePackage } from "@engage-voice/test-kit/workspace";

export type { WorkspacePackage };

export const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

/** Every workspace package without `"private": true`, sorted by directory. */
export function publicPackages(root: string = repoRoot): Promise<WorkspacePackage[]> {
  return read(root);
}
