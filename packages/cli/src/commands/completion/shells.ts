// The shells `completion` writes a script for: the command's choices, read at every start-up, apart
// from the scripts themselves, which load only when the command runs.
export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];
