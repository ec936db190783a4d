import { startPrism } from "@engage-voice/test-kit/servers";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    prismUrl: string;
  }
}

/** Starts Prism from spec/dist/openapi.json with --errors for the whole run, and stops it after. */
export default async function setup(project: TestProject) {
  const prism = await startPrism();
  project.provide("prismUrl", prism.url);
  return () => prism.stop();
}
