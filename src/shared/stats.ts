import type { CounterKey } from './realtime/events';

/**
 * Home's six counters and the navigation's badges (GET /api/stats, spec §3, DESIGN §6): one
 * number per counter the realtime `counter` event moves. `newMatches` (matches with no message
 * yet) is the Matches badge.
 */
export type DashboardCounters = Record<CounterKey, number>;
