import { useToast } from '../../../components/ui/toast';
import { claimAnnouncement } from '../../../lib/announce-once';
import { useMatchCelebration } from '../../matches';
import type { FancyResponse } from '../api';

/**
 * What a fancy's answer tells the member, wherever they fancied from: a private note, the match
 * celebration (once, and only for the fancy that made it), or that they were already matched.
 * `feedback(firstName)` goes to the fancy mutation; all three are toasts.
 */
export function useFancyFeedback() {
  const toast = useToast();
  const celebrate = useMatchCelebration();
  const feedback = (firstName: string) => ({
    onSuccess: (result: FancyResponse) => {
      if (!result.fancied) return;
      if (!result.matchId)
        toast({ title: `You fancy ${firstName}`, description: "It's private: they'll only know if they fancy you too." });
      // The match notifier may have celebrated already.
      else if (claimAnnouncement(`match:${result.matchId}`)) {
        if (result.newMatch) celebrate(result.matchId, firstName);
        else toast({ title: `You and ${firstName} are already matched`, description: 'Your conversation is in Messages.' });
      }
    },
    onError: (err: Error) => toast({ title: 'Something went wrong', description: err.message, variant: 'destructive' }),
  });
  return { feedback };
}
