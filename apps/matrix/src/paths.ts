import { fileURLToPath } from "node:url";

export const appDir = fileURLToPath(new URL("..", import.meta.url));
export const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
/** Tarballs and the compiled scenario: gitignored, rebuilt on every run. */
export const artifactsDir = fileURLToPath(new URL("../.artifacts/", import.meta.url));
export const consumersDir = fileURLToPath(new URL("../consumers/", import.meta.url));
export const typesDir = fileURLToPath(new URL("../types/", import.meta.url));
