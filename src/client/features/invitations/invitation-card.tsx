import { ArrowRight, Clock, MailOpen, RefreshCw, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import type { InvitationView } from '../../../shared/schemas/invitations';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useToast } from '../../components/ui/toast';
import { cn } from '../../lib/cn';
import { dayLabel, formatTime, inSentence, themeOf } from '../mixers';
import { useAnswerInvitation, useInvitations } from './api';

/**
 * Home's "You're invited" (issue 14): each pending invitation to an automatically formed mixer,
 * with why me, when, how long the seat is held, and Accept / Decline. Shows nothing when there
 * is none (most days), a quiet retry when the list could not load.
 */
export function YourInvitations({ className }: { className?: string }) {
  const list = useInvitations();
  const pending = list.data?.pending ?? [];
  if (list.isError && !list.data) {
    return (
      <Card className={cn('flex items-center justify-between gap-3 p-4', className)} role="alert">
        <p className="text-sm font-medium">We couldn't check your invitations just now.</p>
        <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
          <RefreshCw aria-hidden /> Try again
        </Button>
      </Card>
    );
  }
  if (!pending.length) return null;
  return (
    <section aria-labelledby="invitations" className={className} data-testid="invitations">
      <h2 id="invitations" className="flex items-center gap-2 font-display text-xl font-bold">
        <MailOpen className="size-5 text-primary" aria-hidden /> You're invited
      </h2>
      <ul className="mt-3 grid gap-3 lg:grid-cols-2">
        {pending.map((inv) => (
          <li key={inv.id}>
            <InvitationCard invitation={inv} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function InvitationCard({ invitation }: { invitation: InvitationView }) {
  const toast = useToast();
  const answer = useAnswerInvitation();
  const { mixer } = invitation;
  const theme = themeOf(mixer.theme);
  const Icon = theme.icon;
  const busy = answer.isPending;

  const reply = (kind: 'accept' | 'decline') =>
    answer.mutate(
      { id: invitation.id, answer: kind },
      {
        onSuccess: () =>
          kind === 'accept'
            ? toast({ title: "You're in!", description: `Your seat in ${mixer.title} is confirmed. See you there.` })
            : toast({ title: 'Invitation declined', description: "No problem — we've offered your seat to someone else." }),
        onError: (err) => toast({ title: "Couldn't answer the invitation", description: err.message, variant: 'destructive' }),
      },
    );

  return (
    <Card className="flex h-full overflow-hidden" data-testid="invitation-card">
      <div className={cn('relative hidden w-20 shrink-0 sm:block', theme.band, theme.onBand)} aria-hidden>
        <Icon className="absolute left-1/2 top-1/2 size-10 -translate-x-1/2 -translate-y-1/2 opacity-80" strokeWidth={1.5} />
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-2 p-4 sm:p-5">
        <div className="flex items-center gap-2">
          <span
            className={cn('flex size-8 shrink-0 items-center justify-center rounded-lg sm:hidden', theme.band, theme.onBand)}
            aria-hidden
          >
            <Icon className="size-4" />
          </span>
          <p className="truncate text-xs font-semibold uppercase tracking-wide text-muted-foreground">
            {mixer.topic} · {mixer.intent}
          </p>
        </div>
        <h3 className="font-display text-lg font-bold leading-snug">
          <Link to={`/mixers/${mixer.id}`} className="hover:underline">
            {mixer.title}
          </Link>
        </h3>
        <p className="text-sm font-medium">
          {dayLabel(mixer.startsAt, undefined, true)} · {formatTime(mixer.startsAt)}–{formatTime(mixer.endsAt)}
        </p>
        <p className="flex items-start gap-1.5 text-sm text-primary">
          <Sparkles className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          <span>{invitation.why}</span>
        </p>
        <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
          <Clock className="size-3.5 shrink-0" aria-hidden />
          Your seat is held until {inSentence(dayLabel(invitation.expiresAt))}, {formatTime(invitation.expiresAt)}
        </p>
        <div className="mt-auto flex flex-wrap items-center gap-2 pt-2">
          <Button size="sm" onClick={() => reply('accept')} disabled={busy}>
            {busy && answer.variables?.answer === 'accept' ? 'Accepting…' : 'Accept'}
          </Button>
          <Button size="sm" variant="outline" onClick={() => reply('decline')} disabled={busy}>
            {busy && answer.variables?.answer === 'decline' ? 'Declining…' : 'Decline'}
          </Button>
          <Button size="sm" variant="link" asChild className="ml-auto">
            <Link to={`/mixers/${mixer.id}`}>
              See the mixer <ArrowRight aria-hidden />
            </Link>
          </Button>
        </div>
      </div>
    </Card>
  );
}
