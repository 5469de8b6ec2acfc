/**
 * The closest candidate to a mistyped word, or undefined when none is close
 * enough (case-insensitive Levenshtein distance at most `maxDistance`; by
 * default a third of the word, at least 1), in the manner of
 * better-ajv-errors' suggestions.
 */
export function didYouMean(
  word: string,
  candidates: Iterable<string>,
  maxDistance: number = Math.max(1, Math.floor(word.length / 3)),
): string | undefined {
  const target = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of candidates) {
    const d = levenshtein(target, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
