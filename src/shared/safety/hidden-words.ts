import { normaliseForMatching } from './normalise';

/** Read the same way on both sides: normalised, letters stretched past two read once ("sooo" → "so"). */
const prepare = (text: string) => normaliseForMatching(text).replace(/(\p{L})\1{2,}/gu, '$1');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A member's hidden words as one test (issue 30): a line "contains" a word when the word appears
 * as a whole word or phrase (a plural "s" or "es" too), whatever its case, accents, look-alike
 * letters or swapped letters ("Ex", "éx", "3x"); emoji and other symbols match anywhere.
 */
export function hiddenWordMatcher(words: readonly string[]): (line: string) => boolean {
  const parts = words
    .map(prepare)
    .filter(Boolean)
    .map((w) =>
      /^[\p{L}\p{N}]/u.test(w) && /[\p{L}\p{N}]$/u.test(w)
        ? `(?<![\\p{L}\\p{N}])${escapeRegExp(w)}(?:e?s)?(?![\\p{L}\\p{N}])`
        : escapeRegExp(w),
    );
  if (parts.length === 0) return () => false;
  const re = new RegExp(parts.join('|'), 'u');
  return (line) => re.test(prepare(line));
}
