/** Home's six counters and the navigation's badges (GET /api/stats, spec §3, DESIGN §6). */
export interface DashboardCounters {
  unreadMessages: number;
  matches: number;
  activeMixers: number;
  mixersJoined: number;
  messagesSent: number;
  profileViews: number;
  /** Matches with no message yet: the Matches nav badge. */
  newMatches: number;
}
