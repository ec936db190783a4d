// A peer's price for an authorised client that renews its token: Azure's pipeline with its bearer
// policy, whose token cycler refreshes ahead of expiry (core-rest-pipeline's tokenCycler).
// The default pipeline (retries, redirects, logging), as an SDK built on it ships.
export {
  bearerTokenAuthenticationPolicy,
  createDefaultHttpClient,
  createHttpHeaders,
  createPipelineFromOptions,
  createPipelineRequest,
} from "@azure/core-rest-pipeline";
