// Types of the part of registry.mjs that other workspace packages' TypeScript tests import.
export interface ServedRegistry {
  /** The registry's URL, ending in `/`. */
  url: string;
  /** What the rehearsal published into it. */
  release: {
    released: { name: string; version: string; dir: string }[];
    seeded: string[];
  };
  /** A publish token, when served with `publisher: true`. */
  token?: string;
  stop(): Promise<void>;
  output(): string;
}

export const REGISTRY_ARTIFACT: string;
export function serveRegistry(options?: { publisher?: boolean }): Promise<ServedRegistry>;
