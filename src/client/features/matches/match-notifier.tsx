import { useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../components/ui/toast';
import { useRealtimeEvents } from '../../lib/realtime';

/** Matches already announced in this tab, so several mounted notifiers toast once. */
const announced = new Set<string>();

/**
 * "It's a match!" wherever you are in the app: a toast when a mutual fancy lands, and fresh
 * match and conversation lists. Mount once inside the signed-in shell (safe to mount twice).
 */
export function MatchNotifier() {
  const toast = useToast();
  const qc = useQueryClient();
  useRealtimeEvents((event) => {
    if (event.type !== 'match.created' && event.type !== 'match.ended') return;
    void qc.invalidateQueries({ queryKey: ['matches'] });
    void qc.invalidateQueries({ queryKey: ['conversations'] });
    if (event.type === 'match.ended' || announced.has(event.matchId)) return;
    announced.add(event.matchId);
    toast({
      title: "It's a match!",
      description: `You and ${event.otherName} fancy each other. Say hello in Messages.`,
      duration: 8000,
    });
  });
  return null;
}

export default MatchNotifier;
