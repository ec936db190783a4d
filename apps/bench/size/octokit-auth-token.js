// A peer's price for an authorised client: octokit's core with its token strategy (no renewal: a
// GitHub token does not rotate).

export { createTokenAuth } from "@octokit/auth-token";
export { Octokit } from "@octokit/core";
