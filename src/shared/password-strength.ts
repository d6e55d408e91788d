import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/**
 * Passwords attackers try first: a strength estimate (zxcvbn-ts with its common and English
 * dictionaries: leaked passwords, names, words, keyboard patterns, l33t and capital/digit/symbol
 * variants such as `Password123!`). Scores run 0–4; below 3 is refused. The dictionaries are
 * large, so they load on first use: at start-up on the server, only when a form needs them in
 * the client.
 */
export const MIN_PASSWORD_SCORE = 3;

let estimator: Promise<ZxcvbnFactory> | undefined;

function load(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')]).then(
    ([core, common, en]) =>
      new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...en.dictionary },
        graphs: common.adjacencyGraphs,
        translations: en.translations,
        // The estimate grows costly with length; a longer password is judged by its start.
        maxLength: 32,
      }),
  );
  return estimator;
}

/** True when the password is too easy to guess; `related` are the member's own details (name, e-mail). */
export async function isWeakPassword(password: string, related: string[] = []): Promise<boolean> {
  const zxcvbn = await load();
  // Each whole, an address's local part, and every word in them.
  const inputs = related.flatMap((r) => [r, r.split('@')[0], ...r.split(/[@\s.+_-]+/)]).filter((r) => r.length >= 3);
  return zxcvbn.check(password, inputs).score < MIN_PASSWORD_SCORE;
}

/** Starts loading the dictionaries ahead of the first check. */
export function preloadPasswordStrength(): void {
  void load();
}
