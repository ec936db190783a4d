import { fileURLToPath } from "node:url";

export const appDir = fileURLToPath(new URL("..", import.meta.url));
export const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
export const consumersDir = fileURLToPath(new URL("../consumers/", import.meta.url));
export const typesDir = fileURLToPath(new URL("../types/", import.meta.url));
