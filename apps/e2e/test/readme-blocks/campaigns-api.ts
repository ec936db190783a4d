// What `npx openapi-typescript campaigns.yaml -o campaigns-api.ts` writes for the auth README's
// "Operations beyond this contract" block, cut to its one operation.
export interface paths {
  "/voice/api/v1/admin/accounts/{accountId}/campaigns": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path: { accountId: string }; cookie?: never };
      requestBody?: never;
      responses: {
        200: {
          headers: { [name: string]: unknown };
          content: { "application/json": { campaignId: number; campaignName: string }[] };
        };
      };
    };
  };
}
