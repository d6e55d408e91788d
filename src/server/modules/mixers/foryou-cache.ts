/** One ranked candidate of "For you" (./foryou). */
export interface Ranked {
  id: string;
  score: number;
  startsAtMs: number;
  reasons: string[];
}

/**
 * A member's ranking is kept for a few seconds (per process), so paging and the list's
 * refetches do not rank every candidate again; the cards themselves are always read fresh.
 * Joining or leaving a mixer (or answering an invitation) forgets it at once. A file of its own
 * so that `forgetForYou` reaches other modules through ./service without an import circle.
 */
const RANKING_TTL_MS = 20_000;
const RANKING_CACHE_MAX = 2_000;
const rankings = new Map<string, { at: number; ranked: Ranked[] }>();

/** The ranking kept under `key`, if it is fresh on `now`. */
export function keptRanking(key: string, now: Date): Ranked[] | undefined {
  const cached = rankings.get(key);
  return cached && now.getTime() - cached.at < RANKING_TTL_MS ? cached.ranked : undefined;
}

/** Keeps a ranking (the oldest goes when the cache is full). */
export function keepRanking(key: string, now: Date, ranked: Ranked[]) {
  if (rankings.size >= RANKING_CACHE_MAX) rankings.delete(rankings.keys().next().value as string);
  rankings.set(key, { at: now.getTime(), ranked });
}

export function forgetForYou(userId: string) {
  for (const key of rankings.keys()) if (key.startsWith(`${userId}|`)) rankings.delete(key);
}
