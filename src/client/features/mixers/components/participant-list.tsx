import { VerifiedBadge } from '../../../components/ui/verified-badge';
import { Ban, ChevronRight, Ellipsis, Flag, Heart, LockKeyhole, MapPin, Volume2, VolumeX } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { MIXER_MESSAGES, type MixerDetail, type MixerParticipant } from '../../../../shared/mixer-facts';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { MemberProfileDialog, type MemberRef } from '../../profile-card';
import { Avatar } from '../../../components/ui/avatar';
import { asAction, BlockDialog, ReportDialog } from '../../../components/safety/safety-dialogs';
import { useBlockMember, useFancied, useToggleFancy } from '../api';
import { useFancyFeedback } from './fancy-feedback';
import { MenuContent, MenuItem } from '../../../components/ui/menu';
import { now } from '../../../lib/clock';
import { AFTER_MIXER_PROMPT_MS } from '../../../../shared/formation';
import { PresenceDot, useLinePrivacy, useMuteMember } from '../../chat';

/** Shared interests shown on a row; the rest are counted. */
const SHARED_SHOWN = 3;

/**
/**
 * Who is in the mixer: avatar, first name, age and (when they share it) city, and the interests
 * we share. Before the start a participant sees the others' first name, photo and shared
 * interests only — the full card opens when the mixer starts (issue 32). While the mixer is live
 * and after it ends, a participant can Block or Report the others; Fancy them while it is live and
 * for 48 hours after it ends, as the server allows (AFTER_MIXER_PROMPT_MS).
 */
export function ParticipantList({ mixer, className }: { mixer: MixerDetail; className?: string }) {
  const actions = mixer.myState === 'joined' && (mixer.status === 'live' || mixer.status === 'ended');
  const canFancy = actions && (mixer.status === 'live' || now().getTime() < Date.parse(mixer.endsAt) + AFTER_MIXER_PROMPT_MS);
  const beforeStart = mixer.myState === 'joined' && mixer.status === 'scheduled';
  // Who is in the room right now (issue 29): the chat panel listens; this shows it.
  const inRoom = mixer.myState === 'joined' && mixer.status === 'live';
  const fancied = useFancied(mixer.id, actions);
  const toggle = useToggleFancy(mixer.id);
  const block = useBlockMember(mixer.id);
  const { feedback } = useFancyFeedback();
  const [dialog, setDialog] = useState<{ kind: 'block' | 'report'; member: MixerParticipant } | null>(null);
  const [viewing, setViewing] = useState<MemberRef | null>(null);
  const fanciedIds = new Set(fancied.data?.fancied ?? []);
  // Mute: their lines in this mixer collapse for me only (issue 30).
  const mutedIds = new Set(useLinePrivacy({ mixerId: mixer.id }, actions).mutedMemberIds);
  const muting = useMuteMember(mixer.id);

  const onFancy = (p: MixerParticipant) => {
    const fancy = !fanciedIds.has(p.id);
    toggle.mutate({ userId: p.id, fancy }, feedback(p.firstName));
  };

  const others = mixer.participants.filter((p) => !p.isYou).length;
  // Members who only show their profile to people in the same mixer are counted but not listed.
  const unlisted = mixer.participantCount - mixer.participants.length;

  return (
    <Card className={cn('p-4 sm:p-5', className)}>
      <h2 className="flex items-baseline justify-between gap-2 font-semibold" id="people-heading">
        Who's here
        <span className="text-sm font-normal text-muted-foreground tabular-nums">
          {mixer.participantCount}/{mixer.maxParticipants} seats
        </span>
      </h2>
      {canFancy && others > 0 && (
        <p className="mt-1 text-sm text-muted-foreground">Clicked with someone? Fancy them — it's private unless it's mutual.</p>
      )}
      {beforeStart && others > 0 && (
        <p className="mt-1 flex gap-1.5 text-sm text-muted-foreground" data-testid="cards-open-note">
          <LockKeyhole className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          <span>{MIXER_MESSAGES.cardsOpenAtStart}</span>
        </p>
      )}
      {mixer.participants.length === 0 ? (
        unlisted <= 0 && <p className="mt-4 text-sm text-muted-foreground">No one has joined yet. Be the first!</p>
      ) : (
        <ul className="mt-4 grid grid-cols-1 gap-2" aria-labelledby="people-heading">
          {mixer.participants.map((p) => {
            const isFancied = fanciedIds.has(p.id);
            return (
              <li
                key={p.id}
                className={cn('group flex items-center gap-3 rounded-xl p-1.5', p.canOpen && 'hover:bg-muted/60')}
                data-testid="participant"
                data-openable={p.canOpen}
              >
                <div className="relative flex min-w-0 flex-1 items-center gap-3">
                  <span className="relative shrink-0">
                    <Avatar name={p.firstName} src={p.avatarUrl} className="size-11 text-base" />
                    {inRoom && <PresenceDot room={`mixer:${mixer.id}`} userId={p.id} />}
                  </span>
                  <div className="min-w-0 flex-1">
                    {/* Nothing cut off in a narrow column: the badges move under the name instead. */}
                    <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 font-medium">
                      <span className={cn('min-w-0', p.canOpen && 'underline-offset-4 group-hover:underline')}>
                        {p.firstName}
                        {p.age !== null && <span className="text-muted-foreground">, {p.age}</span>}
                      </span>
                      {p.verified && <VerifiedBadge className="shrink-0" label={false} />}
                      {mutedIds.has(p.id) && (
                        <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-muted px-2 py-0.5 text-[11px] font-semibold text-muted-foreground">
                          <VolumeX className="size-3" aria-hidden /> Muted
                        </span>
                      )}
                      {p.isYou && (
                        <span className="shrink-0 rounded-full bg-secondary px-2 py-0.5 text-[11px] font-semibold text-secondary-foreground">
                          You
                        </span>
                      )}
                    </p>
                    {p.city && (
                      <p className="flex min-w-0 items-center gap-1 text-xs text-muted-foreground">
                        <MapPin className="size-3 shrink-0" aria-hidden /> <span className="truncate">{p.city}</span>
                      </p>
                    )}
                    {p.sharedInterests?.length > 0 && <SharedInterests interests={p.sharedInterests} />}
                  </div>
                  {/* Openable rows say so where there is room (no Fancy button beside them). */}
                  {p.canOpen && !(actions && !p.isYou) && <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden />}
                  {/* Only a card the server says opens is a button (over the avatar and name; the text stays
                      outside its accessible name). Anyone else is plain text: nothing to click. */}
                  {p.canOpen && (
                    <button
                      type="button"
                      onClick={() => setViewing({ id: p.id, firstName: p.firstName })}
                      aria-label={p.isYou ? 'View your profile' : `View ${p.firstName}'s profile`}
                      className="absolute -inset-1 cursor-pointer rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                    />
                  )}
                </div>
                {actions && !p.isYou && (
                  <div className="flex shrink-0 items-center gap-1">
                    {canFancy && (
                      <button
                        type="button"
                        aria-pressed={isFancied}
                        aria-label={`Fancy ${p.firstName}`}
                        disabled={fancied.isPending}
                        onClick={() => onFancy(p)}
                        className={cn(
                          'inline-flex h-9 items-center gap-1.5 rounded-full border px-3 text-sm font-semibold transition-colors disabled:opacity-50',
                          isFancied
                            ? 'border-primary bg-primary text-primary-foreground'
                            : 'border-primary/40 text-primary hover:bg-accent',
                        )}
                      >
                        <Heart className={cn('size-4', isFancied && 'fill-current')} aria-hidden />
                        {/* The same word pressed or not (its name is “Fancy <name>”, WCAG 2.5.3); the filled heart shows it is on. */}
                        <span aria-hidden>Fancy</span>
                      </button>
                    )}
                    <DropdownMenu.Root>
                      <DropdownMenu.Trigger
                        className="flex size-9 items-center justify-center rounded-full text-muted-foreground hover:bg-muted hover:text-foreground"
                        aria-label={`More options for ${p.firstName}`}
                      >
                        <Ellipsis className="size-5" aria-hidden />
                      </DropdownMenu.Trigger>
                      <MenuContent>
                        <MenuItem icon={Flag} onSelect={() => setDialog({ kind: 'report', member: p })}>
                          Report {p.firstName}
                        </MenuItem>
                        {mutedIds.has(p.id) ? (
                          <MenuItem icon={Volume2} onSelect={() => muting.unmute(p.id, p.firstName)}>
                            Unmute {p.firstName}
                          </MenuItem>
                        ) : (
                          <MenuItem icon={VolumeX} onSelect={() => muting.mute(p.id, p.firstName)}>
                            Mute {p.firstName}
                          </MenuItem>
                        )}
                        <MenuItem icon={Ban} destructive onSelect={() => setDialog({ kind: 'block', member: p })}>
                          Block {p.firstName}
                        </MenuItem>
                      </MenuContent>
                    </DropdownMenu.Root>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {unlisted > 0 && mixer.myState !== 'joined' && (
        <p className="mt-4 text-sm text-muted-foreground" data-testid="unlisted-note">
          {mixer.participants.length === 0
            ? `${unlisted} ${unlisted === 1 ? 'person has' : 'people have'} joined.`
            : `And ${unlisted} more.`}{' '}
          Join to see everyone who's here.
        </p>
      )}
      {dialog?.kind === 'block' && (
        <BlockDialog open onOpenChange={(o) => !o && setDialog(null)} member={dialog.member} block={asAction(block)} />
      )}
      {dialog?.kind === 'report' && (
        <ReportDialog open onOpenChange={(o) => !o && setDialog(null)} member={dialog.member} mixerId={mixer.id} />
      )}
      <MemberProfileDialog member={viewing} onOpenChange={(open) => !open && setViewing(null)} />
    </Card>
  );
}

/** "You both like Hiking · Jazz +2": what we have in common, on one or two short lines at 375 px. */
function SharedInterests({ interests }: { interests: string[] }) {
  const shown = interests.slice(0, SHARED_SHOWN);
  const more = interests.length - shown.length;
  return (
    <p className="mt-0.5 min-w-0 text-xs text-muted-foreground" data-testid="shared-interests">
      You both like <span className="font-medium text-foreground/80">{shown.join(' · ')}</span>
      {more > 0 && <span> +{more}</span>}
    </p>
  );
}
