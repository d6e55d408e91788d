import { useQueryClient } from '@tanstack/react-query';
import { claimAnnouncement } from '../../lib/announce-once';
import { useRealtimeEvents } from '../../lib/realtime';
import { useMatchCelebration } from './celebration';

/** The fancy that completed a match celebrates it where it was made; give it a moment to claim it. */
const CLAIM_DELAY_MS = 800;

/**
 * "It's a match!" wherever you are in the app: a toast when a mutual fancy lands, and fresh
 * match and conversation lists. Mount once inside the signed-in shell (safe to mount twice).
 */
export function MatchNotifier() {
  const celebrate = useMatchCelebration();
  const qc = useQueryClient();
  useRealtimeEvents((event) => {
    if (event.type !== 'match.created' && event.type !== 'match.ended') return;
    void qc.invalidateQueries({ queryKey: ['matches'] });
    void qc.invalidateQueries({ queryKey: ['conversations'] });
    if (event.type === 'match.ended') return;
    const { matchId, otherName } = event;
    setTimeout(() => {
      if (!claimAnnouncement(`match:${matchId}`)) return;
      celebrate(matchId, otherName);
    }, CLAIM_DELAY_MS);
  });
  return null;
}
