/**
 * One way of reading member text for matching, shared by the detectors (detect.ts) and each
 * member's hidden words (hidden-words.ts), so both see through the same disguises: case,
 * accents, look-alike letters from other scripts, full-width forms and common letter swaps.
 */

/** Letters from other scripts (and symbols) that look like Latin ones. */
const LOOK_ALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  ν: 'v',
  χ: 'x',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ł: 'l',
  ı: 'i',
};

/** Digits and symbols written for letters ("sh1t", "@ss", "$lut"). */
const LETTER_SWAPS: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '@': 'a',
  $: 's',
  '!': 'i',
  '|': 'l',
  '€': 'e',
};

/** What may follow a number without it being a disguised letter. */
const UNIT = /^(?:am|pm|st|nd|rd|th|k|m|s|x|kg|km|ft|cm|mm|ml|mph|mins?|hrs?|h|p|yo|yrs?|ish|g|gb|mb|v|d)\b/;
const MARKS = /\p{M}/gu;
// U+034F is a combining mark (removed with MARKS first); the rest show nothing: soft hyphen,
// zero-width and direction marks, word joiners, BOM, and the blanks that are letters to Unicode
// (braille blank, Hangul fillers), which would split a number or a handle without a space.
const INVISIBLE = /[\u00AD\u115F\u1160\u180E\u200B-\u200F\u2060-\u2064\u2800\u3164\uFEFF\uFFA0]/g;
const DIGIT = /^\p{Nd}$/u;

/** A decimal digit of any script as its ASCII digit ("٧" → "7"): the digits of a script come in runs of ten from its zero. */
function asciiDigit(ch: string): string {
  const cp = ch.codePointAt(0) as number;
  let zero = cp;
  while (DIGIT.test(String.fromCodePoint(zero - 1))) zero--;
  return String((cp - zero) % 10);
}

/** Lower case, no accents, no invisible characters, look-alike letters read as Latin; digits of any script as ASCII digits. */
export function foldText(text: string): string {
  const base = text.normalize('NFKD').replace(MARKS, '').replace(INVISIBLE, '').toLowerCase();
  let out = '';
  for (const ch of base) out += LOOK_ALIKES[ch] ?? (ch > '\u007f' && DIGIT.test(ch) ? asciiDigit(ch) : ch);
  return out;
}

/**
 * foldText, then digits and symbols inside words read as the letters they stand for. A swap
 * counts only next to a letter ("sh1t" → "shit", "@ss" → "ass") so "at 10" or "£5" stay as typed.
 */
export function unswapLetters(folded: string): string {
  return folded.replace(/[0-9@$!|€]+/g, (run, at: number, all: string) => {
    const before = all[at - 1] ?? '';
    const after = all[at + run.length] ?? '';
    const letterBefore = /\p{L}/u.test(before);
    const letterAfter = /\p{L}/u.test(after);
    if (!letterBefore && !letterAfter) return run;
    if (/^\d+$/.test(run) && letterBefore !== letterAfter) {
      // "10am", "2nd", "100k", "covid19": a number beside a unit or a name, not a swapped letter.
      if (run.length >= 3 || (letterAfter && UNIT.test(all.slice(at + run.length)))) return run;
    }
    let out = '';
    for (const ch of run) out += LETTER_SWAPS[ch] ?? ch;
    return out;
  });
}

/** What every text matcher reads: folded, letter swaps undone, runs of spaces as one. */
export const normaliseForMatching = (text: string) => normaliseFolded(foldText(text));
export const normaliseFolded = (folded: string) => unswapLetters(folded).replace(/\s+/g, ' ').trim();
