// The rows of the command line's start-up (bench/cli.bench.ts) that src/write-benchmarks.ts pairs:
// `engage-voice token` with a valid stored session, and its floor, a ten-line script reading the same
// file (src/stored-token-script.mjs), beside `node -e 0`, the floor of every Node bin.
export const NODE_FLOOR = "node -e 0";
export const TOKEN_ROW = "engage-voice token (a valid stored session)";
export const TOKEN_FLOOR = "a 10-line script: read the token file, check expiresAt, print";
/** The aim for `token`: at most this many times `node -e 0`. */
export const TOKEN_AIM = 1.6;
