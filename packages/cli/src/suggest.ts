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

/**
 * The path template (`/voice/api/v1/admin/token/{apiToken}`) a mistyped path most likely meant:
 * compared segment by segment with the templates of as many segments, where a `{parameter}` takes
 * any one segment and each other segment counts its edits, within two edits in all; else the nearest
 * as a whole word (a trailing `/`, a path cut short). `undefined` when none is near enough.
 */
export function closestPath(path: string, templates: readonly string[]): string | undefined {
  const typed = path.toLowerCase().split("/");
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const template of templates) {
    const parts = template.toLowerCase().split("/");
    if (parts.length !== typed.length) {
      continue;
    }
    let distance = 0;
    for (const [i, part] of parts.entries()) {
      const segment = typed[i] ?? "";
      distance += part.startsWith("{") ? (segment === "" ? 1 : 0) : editDistance(segment, part);
    }
    if (distance <= 2 && distance < bestDistance) {
      best = template;
      bestDistance = distance;
    }
  }
  return best ?? closest(path, templates);
}
