import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/**
 * Passwords attackers try first: a strength estimate (zxcvbn-ts with its common and English
 * dictionaries: leaked passwords, names, words, keyboard patterns, l33t and capital/digit/symbol
 * variants such as `Password123!`; plus the app's own words and the UK places of the city list,
 * such as `Fancy2026!` or `Liverpool2024!`). Scores run 0–4; below 3 is refused. The dictionaries are
 * large, so they load on first use: at start-up on the server, only when a form needs them in
 * the client.
 */
export const MIN_PASSWORD_SCORE = 3;

/** Words of the app itself, which attackers of a Fancy account try first (most likely first). */
export const APP_WORDS = [
  'fancy',
  'dating',
  'mixer',
  'mixers',
  'fancydating',
  'fancyapp',
  'match',
  'matches',
  'date',
  'dates',
  'datenight',
  'speeddating',
  'singles',
  'single',
  'romance',
  'crush',
  'lovelife',
  'soulmate',
  'meetup',
];

/** The app's words, then the UK places of the built-in city list (whole, without spaces, and each longer word). */
export function appDictionary(cities: readonly { name: string }[]): string[] {
  const places = cities.flatMap(({ name }) => {
    const lower = name.toLowerCase();
    return [lower.replace(/[^a-z]/g, ''), ...lower.split(/[^a-z]+/).filter((w) => w.length >= 4 && w !== 'upon')];
  });
  return [...new Set([...APP_WORDS, ...places])];
}

interface Estimator {
  zxcvbn: ZxcvbnFactory;
  /** The app's words and places, longest first. */
  words: string[];
}

let estimator: Promise<Estimator> | undefined;

function load(): Promise<Estimator> {
  estimator ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
    import('./reference/uk-cities'),
  ]).then(([core, common, en, places]) => {
    const words = appDictionary(places.UK_CITIES);
    return {
      zxcvbn: new core.ZxcvbnFactory({
        // The app's words and places as a dictionary of their own (capitals, l33t, digits like any word).
        dictionary: { ...common.dictionary, ...en.dictionary, fancy: words },
        graphs: common.adjacencyGraphs,
        translations: en.translations,
        // The estimate grows costly with length; a longer password is judged by its start.
        maxLength: 32,
      }),
      words: [...words].sort((a, b) => b.length - a.length),
    };
  });
  return estimator;
}

/** The password without any of `words` (case-insensitive): what a guesser who knows them still has to find. */
function withoutWords(password: string, words: string[]): string {
  let rest = password.toLowerCase();
  for (const w of words) if (rest.includes(w)) rest = rest.split(w).join('');
  return rest;
}

/**
 * True when the password is too easy to guess; `related` are the member's own details (name, e-mail).
 * A guesser aiming at a Fancy member starts from the app's words, UK places and the member's own
 * words, so the password is judged twice: as typed, and with those words taken out (the estimator
 * alone scores several joined words as strong, e.g. `Fancy-dating-2026`).
 */
export async function isWeakPassword(password: string, related: string[] = []): Promise<boolean> {
  const { zxcvbn, words } = await load();
  // Each whole, an address's local part, and every word in them.
  const inputs = related.flatMap((r) => [r, r.split('@')[0], ...r.split(/[@\s.+_-]+/)]).filter((r) => r.length >= 3);
  if (zxcvbn.check(password, inputs).score < MIN_PASSWORD_SCORE) return true;
  const own = [...new Set(inputs.map((w) => w.toLowerCase()))].sort((a, b) => b.length - a.length);
  const rest = withoutWords(withoutWords(password, own), words);
  return rest !== password.toLowerCase() && zxcvbn.check(rest, inputs).score < MIN_PASSWORD_SCORE;
}

/** Why a password is refused: guessable by anyone, or by someone who knows the member's name or address. */
export type PasswordWeakness = 'common' | 'own-words';

/**
 * Null when the password is hard enough to guess; otherwise why not. `own-words` when it would
 * pass but for the member's own details (`related`): telling them it is "too common" sent them
 * looking for a rarer word when what gave it away was their name.
 */
export async function passwordWeakness(password: string, related: string[] = []): Promise<PasswordWeakness | null> {
  if (!(await isWeakPassword(password, related))) return null;
  return related.length && !(await isWeakPassword(password)) ? 'own-words' : 'common';
}
