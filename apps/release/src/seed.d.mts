// Types of the part of seed.mjs that other workspace packages' TypeScript imports.
export function seedThirdParty(
  registry: { url: string; token?: string },
  root: string,
  packages: { name: string; dir: string; manifest: Record<string, unknown> }[],
  scratch: string,
  skip?: string[],
): Promise<string[]>;
