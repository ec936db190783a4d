// Generated from spec/dist/openapi.json by packages/client/scripts/generate.mjs. Do not edit.

/** The `pattern` of each string schema of the document, by schema name. */
export const schemaPatterns = {
  PermanentApiToken: /^[0-9A-Za-z._~-]+:[0-9A-Za-z-]+$/u,
} as const;
