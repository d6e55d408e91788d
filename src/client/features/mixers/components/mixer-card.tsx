import { Check, Hourglass, Sparkles, Ticket } from 'lucide-react';
import { Link } from 'react-router';
import { type MixerSummary, mixerSeatsTaken } from '../../../../shared/mixer-facts';
import { cn } from '../../../lib/cn';
import { themeOf } from '../themes';
import { AudienceLine } from './audience';
import { AvatarStack } from './avatar-stack';
import { MixerTags } from './mixer-tags';
import { StatusPill } from './status-pill';

/** A theme-coloured card: status and time, topic, title, tags (shared ones marked), seats and my state. */
export function MixerCard({ mixer, headingLevel = 3 }: { mixer: MixerSummary; headingLevel?: 2 | 3 }) {
  const theme = themeOf(mixer.theme);
  const Icon = theme.icon;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const taken = mixerSeatsTaken(mixer);
  const full = taken >= mixer.maxParticipants;
  const forYou = mixer.sharedTags.length > 0;
  const ended = mixer.status === 'ended' || mixer.status === 'cancelled';

  return (
    <article
      className={cn(
        'group relative flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-card shadow-sm transition hover:-translate-y-0.5 hover:shadow-md has-[:focus-visible]:outline-3 has-[:focus-visible]:-outline-offset-3 has-[:focus-visible]:outline-ring',
        ended && 'opacity-90',
      )}
      data-testid="mixer-card"
    >
      <div className={cn('relative flex h-24 items-start justify-between gap-2 overflow-hidden p-3', theme.band, theme.onBand)}>
        <StatusPill mixer={mixer} />
        <span className="rounded-full bg-white/90 px-2.5 py-1 text-xs font-semibold text-stone-900 shadow-sm">{mixer.intent}</span>
        <Icon className="absolute -bottom-4 right-3 size-20 opacity-25 transition group-hover:rotate-6" aria-hidden strokeWidth={1.5} />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex min-h-6 items-center justify-between gap-2">
          <p className="truncate text-xs font-semibold uppercase tracking-wide text-muted-foreground">{mixer.topic}</p>
          {mixer.myState === 'joined' ? (
            <span className="inline-flex items-center gap-1 whitespace-nowrap rounded-full bg-success/10 px-2.5 py-1 text-xs font-semibold text-success">
              <Check className="size-3.5" aria-hidden /> {ended ? 'You were here' : 'Joined'}
            </span>
          ) : mixer.myState === 'waitlisted' ? (
            <span className="inline-flex items-center gap-1 whitespace-nowrap rounded-full bg-secondary px-2.5 py-1 text-xs font-semibold text-secondary-foreground">
              <Hourglass className="size-3.5" aria-hidden /> Waitlisted
            </span>
          ) : mixer.myInvitation && !ended ? (
            <span className="inline-flex items-center gap-1 whitespace-nowrap rounded-full bg-primary px-2.5 py-1 text-xs font-semibold text-primary-foreground">
              <Ticket className="size-3.5" aria-hidden /> Seat held for you
            </span>
          ) : !mixer.reasons && (forYou || mixer.intentMatch) ? (
            <span className="inline-flex items-center gap-1 whitespace-nowrap rounded-full bg-accent px-2.5 py-1 text-xs font-semibold text-accent-foreground">
              <Sparkles className="size-3.5" aria-hidden /> For you
            </span>
          ) : null}
        </div>
        <Heading className="font-display text-lg font-bold leading-snug">
          <Link to={`/mixers/${mixer.id}`} className="outline-none after:absolute after:inset-0 after:content-['']">
            {mixer.title}
          </Link>
        </Heading>
        {mixer.reasons && mixer.reasons.length > 0 && (
          <p className="flex items-start gap-1.5 text-sm font-medium text-primary" data-testid="mixer-reasons">
            <Sparkles className="mt-0.5 size-3.5 shrink-0" aria-hidden />
            <span>
              <span className="sr-only">Why it's for you: </span>
              {mixer.reasons.join(' · ')}
            </span>
          </p>
        )}
        <AudienceLine mixer={mixer} />
        <MixerTags tags={mixer.tags} sharedTags={mixer.sharedTags} />
        <div className="mt-auto flex items-center gap-2 pt-3">
          <span className="flex items-center gap-2">
            <AvatarStack preview={mixer.preview} total={mixer.participantCount} />
            <span className="whitespace-nowrap text-sm text-muted-foreground">
              <span className="font-semibold text-foreground tabular-nums">
                {full && !ended ? taken : mixer.participantCount}/{mixer.maxParticipants}
              </span>{' '}
              {full && !ended ? 'full' : 'joined'}
            </span>
          </span>
        </div>
      </div>
    </article>
  );
}

export function MixerCardSkeleton() {
  return (
    <div className="flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-card" aria-hidden>
      <div className="h-24 animate-pulse bg-muted" />
      <div className="flex flex-col gap-3 p-4">
        <div className="h-3 w-20 animate-pulse rounded bg-muted" />
        <div className="h-5 w-3/4 animate-pulse rounded bg-muted" />
        <div className="flex gap-2">
          <div className="h-5 w-16 animate-pulse rounded-full bg-muted" />
          <div className="h-5 w-20 animate-pulse rounded-full bg-muted" />
        </div>
        <div className="mt-3 h-8 w-32 animate-pulse rounded-full bg-muted" />
      </div>
    </div>
  );
}
