import { MessageCircleHeart, PartyPopper, X } from 'lucide-react';
import { Toast } from 'radix-ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { useToast } from '../../../components/ui/toast';
import { claimAnnouncement } from '../../../lib/announce-once';
import type { FancyResponse } from '../api';

/**
 * "It's a match!" — a celebratory toast with a link to the new conversation. Rendered into the
 * app's toast viewport (same Radix provider as useToast), but with its own look and a link.
 */
export function MatchToast({
  match,
  onOpenChange,
}: {
  match: { matchId: string; firstName: string } | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Toast.Root
      open={Boolean(match)}
      onOpenChange={onOpenChange}
      duration={10_000}
      className="pointer-events-auto relative overflow-hidden rounded-2xl bg-linear-to-br from-pink-600 via-rose-600 to-orange-500 p-4 pr-10 text-white shadow-2xl data-[state=closed]:opacity-0"
      data-testid="match-toast"
    >
      {match && (
        <div className="flex items-start gap-3">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-white/20">
            <PartyPopper className="size-6" aria-hidden />
          </span>
          <div className="grid gap-1">
            <Toast.Title className="font-display text-lg font-extrabold">It's a match!</Toast.Title>
            <Toast.Description className="text-sm text-white/95">
              You and {match.firstName} fancy each other. Your private conversation is open.
            </Toast.Description>
            <Toast.Action altText={`Open your conversation with ${match.firstName}`} asChild>
              <Link
                to={`/messages/${match.matchId}`}
                className="mt-2 inline-flex w-fit items-center gap-2 rounded-full bg-white px-4 py-2 text-sm font-semibold text-rose-700 shadow hover:bg-rose-50"
              >
                <MessageCircleHeart className="size-4" aria-hidden />
                Say hello to {match.firstName}
              </Link>
            </Toast.Action>
          </div>
        </div>
      )}
      <Toast.Close
        aria-label="Close"
        className="absolute right-2 top-2 rounded-full p-1.5 text-white/80 hover:bg-white/15 hover:text-white"
      >
        <X className="size-4" aria-hidden />
      </Toast.Close>
    </Toast.Root>
  );
}

/**
 * What a fancy's answer tells the member, wherever they fancied from: a private note, the match
 * celebration (once, and only for the fancy that made it), or that they were already matched.
 * `feedback(firstName)` goes to the fancy mutation; `celebration` is rendered once on the page.
 */
export function useFancyFeedback() {
  const toast = useToast();
  const [match, setMatch] = useState<{ matchId: string; firstName: string } | null>(null);
  const feedback = (firstName: string) => ({
    onSuccess: (result: FancyResponse) => {
      if (!result.fancied) return;
      if (!result.matchId)
        toast({ title: `You fancy ${firstName}`, description: "It's private: they'll only know if they fancy you too." });
      // The match notifier may have celebrated already.
      else if (claimAnnouncement(`match:${result.matchId}`)) {
        if (result.newMatch) setMatch({ matchId: result.matchId, firstName });
        else toast({ title: `You and ${firstName} are already matched`, description: 'Your conversation is in Messages.' });
      }
    },
    onError: (err: Error) => toast({ title: 'Something went wrong', description: err.message, variant: 'destructive' }),
  });
  const celebration = <MatchToast match={match} onOpenChange={(open) => !open && setMatch(null)} />;
  return { feedback, celebration };
}
