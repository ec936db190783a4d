// The words that may come first on the command line, drawn from the command table: the help and the
// completion scripts list the same ones.
import type { CommandTable } from "./command.js";

/** The words that may come first: each command or group, `help`, and the handed-over command. */
export function firstWords({
  commands,
  groups,
  handedOver,
}: CommandTable): { name: string; summary: string }[] {
  const words = new Map<string, string>();
  for (const command of commands) {
    const first = command.name.split(" ")[0] as string;
    const summary =
      commands.find((c) => c.name === first)?.summary ?? groups.find((g) => g.name === first)?.summary;
    words.set(first, summary ?? "");
  }
  words.set(handedOver.name, handedOver.summary);
  words.set("help", "show the help of a command (the same as --help)");
  return [...words].map(([name, summary]) => ({ name, summary }));
}
