// "Did you mean": the known word nearest to a mistyped one, as git, gh and cobra offer it.
import { editDistance } from "@engage-voice/client/internal";

/**
 * The candidate a mistyped word most likely meant: within two edits (one for words of up to four
 * letters, where two edits reach almost any word), or a word it is the start of; the first of the
 * nearest when several are as near. `undefined` when none is near enough to be worth saying.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  const reach = typed.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    // Words far apart in length are far apart: a pasted value is never compared letter by letter.
    if (Math.abs(candidate.length - typed.length) > reach && !candidate.startsWith(typed)) {
      continue;
    }
    const distance = candidate.startsWith(typed) && typed.length >= 2 ? 0.5 : editDistance(typed, candidate);
    if (distance <= reach && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
