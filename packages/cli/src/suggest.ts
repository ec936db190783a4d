// "Did you mean": the known word nearest to a mistyped one, as git, gh and cobra offer it.

/** Edits (insert, delete, replace, swap two neighbours) between two words: optimal string alignment. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

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
