import { CalendarClock, CalendarX2, CheckCircle2, Hourglass, type LucideIcon, Ticket, UserRoundPen } from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { Link } from 'react-router';
import { useState } from 'react';
import { MIXER_MESSAGES, type MixerClash, type MixerDetail, mixerSeatsTaken } from '../../../../shared/mixer-facts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { cn } from '../../../lib/cn';
import { useAnswerInvitation, useJoinMixer, useLeaveMixer } from '../api';
import { dayLabel, formatTime, inSentence, startsAtLabel } from '../format';
import { SeatPlanFill } from './audience';
import { useReturnFocus } from '../../../components/ui/use-return-focus';
import { resumeOnboarding } from '../../onboarding';

/** Seats, and Join / Join the waitlist / Leave, with what each state means. */
export function JoinCard({ mixer, className }: { mixer: MixerDetail; className?: string }) {
  const toast = useToast();
  const join = useJoinMixer(mixer.id);
  const leave = useLeaveMixer(mixer.id);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const returnFocus = useReturnFocus(confirmLeave);
  const over = mixer.status === 'ended' || mixer.status === 'cancelled';
  const answer = useAnswerInvitation(mixer.id);
  // Seats held for invited members count as taken (issue 14), except the one held for me.
  const taken = mixerSeatsTaken(mixer);
  const full = taken >= mixer.maxParticipants;
  const invitation = mixer.status === 'scheduled' && !mixer.myState ? mixer.myInvitation : null;
  // Seats fill per side of a seat plan: my side can be full while the mixer is not.
  const planned = mixer.audience.seatPlan.length > 0;
  const fullForMe = mixer.seatsForMe === 0;
  const seatsLeft = Math.max(0, mixer.maxParticipants - taken);
  const pct = Math.min(100, Math.round((taken / Math.max(1, mixer.maxParticipants)) * 100));

  const doAnswer = (id: string, kind: 'accept' | 'decline') =>
    answer.mutate(
      { id, answer: kind },
      {
        onSuccess: () =>
          kind === 'accept'
            ? toast({ title: "You're in!", description: `Your seat in ${mixer.title} is confirmed.` })
            : toast({ title: 'Invitation declined', description: "No problem — we've offered your seat to someone else." }),
        onError: (err) => toast({ title: "Couldn't answer the invitation", description: err.message, variant: 'destructive' }),
      },
    );

  const doJoin = (waitlist: boolean) =>
    join.mutate(waitlist, {
      onSuccess: (r) =>
        r.state === 'joined'
          ? toast({ title: "You're in!", description: `You've joined ${mixer.title}.` })
          : toast({ title: "You're on the waitlist", description: "We'll let you know as soon as a seat opens up." }),
      onError: (err) =>
        toast({
          title: err instanceof ApiError && err.status === 409 ? "Couldn't join" : 'Something went wrong',
          description: err.message,
          variant: 'destructive',
        }),
    });

  const doLeave = () =>
    leave.mutate(undefined, {
      onSuccess: () => {
        setConfirmLeave(false);
        toast({
          title: mixer.myState === 'waitlisted' ? 'You left the waitlist' : 'You left the mixer',
          description: mixer.myState === 'waitlisted' ? undefined : `Your seat in ${mixer.title} is free for someone else now.`,
        });
      },
      onError: (err) => toast({ title: 'Something went wrong', description: err.message, variant: 'destructive' }),
    });

  return (
    <Card className={cn('p-4 sm:p-5', className)}>
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-semibold">
          {taken} of {mixer.maxParticipants} seats taken
        </span>
        {!over && (
          <span className="text-muted-foreground">
            {full ? (mixer.waitlistCount ? `${mixer.waitlistCount} waiting` : 'Full') : `${seatsLeft} left`}
          </span>
        )}
      </div>
      {planned ? (
        <SeatPlanFill mixer={mixer} />
      ) : (
        <div className="mt-2 h-2 overflow-hidden rounded-full bg-muted" aria-hidden>
          <div className={cn('h-full rounded-full', full ? 'bg-amber-500' : 'bg-primary')} style={{ width: `${pct}%` }} />
        </div>
      )}

      <div className="mt-4">
        {mixer.status === 'cancelled' ? (
          <p className="text-sm text-muted-foreground">This mixer was cancelled.</p>
        ) : mixer.status === 'ended' ? (
          <p className="text-sm text-muted-foreground">
            {mixer.myState === 'joined' ? 'This mixer has ended. You can still Fancy the people you met.' : 'This mixer has ended.'}
          </p>
        ) : mixer.myState === 'joined' ? (
          <div className="flex flex-col gap-3">
            <StateNote icon={CheckCircle2} tone="text-success">
              <span className="font-semibold">You're in!</span>{' '}
              {mixer.status === 'live'
                ? 'The chat is open — say hello.'
                : `The chat opens when the mixer starts, ${startsAtLabel(mixer.startsAt)}.`}
            </StateNote>
            <Button variant="outline" onClick={() => setConfirmLeave(true)}>
              Leave mixer
            </Button>
          </div>
        ) : mixer.myState === 'waitlisted' ? (
          <div className="flex flex-col gap-3">
            <StateNote icon={Hourglass} tone="text-primary">
              <span className="font-semibold">You're #{mixer.waitlistPosition ?? 1} on the waitlist.</span> If a seat opens up, it's yours
              and we'll tell you straight away.
            </StateNote>
            <Button variant="outline" onClick={doLeave} disabled={leave.isPending}>
              {leave.isPending ? 'Leaving…' : 'Leave the waitlist'}
            </Button>
          </div>
        ) : invitation && mixer.canJoin ? (
          <div className="flex flex-col gap-3" data-testid="held-seat">
            <p className="flex items-start gap-2 rounded-xl border border-primary/30 bg-accent/60 p-3 text-sm">
              <Ticket className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
              <span>
                <span className="font-semibold">
                  A seat is held for you until {inSentence(dayLabel(invitation.expiresAt))}, {formatTime(invitation.expiresAt)}.
                </span>{' '}
                Accept to take it, or decline and we'll offer it to someone else.
              </span>
            </p>
            <div className="grid grid-cols-2 gap-2">
              <Button variant="outline" onClick={() => doAnswer(invitation.id, 'decline')} disabled={answer.isPending}>
                Decline
              </Button>
              <Button onClick={() => doAnswer(invitation.id, 'accept')} disabled={answer.isPending}>
                {answer.isPending && answer.variables?.answer === 'accept' ? 'Accepting…' : 'Accept'}
              </Button>
            </div>
            <p className="flex items-center justify-center gap-1.5 text-xs text-muted-foreground">
              <CalendarClock className="size-3.5" aria-hidden />
              {dayLabel(mixer.startsAt)} at {formatTime(mixer.startsAt)}. You can leave any time before.
            </p>
          </div>
        ) : !mixer.canJoin ? (
          <div className="flex flex-col gap-3">
            <StateNote icon={UserRoundPen} tone="text-primary">
              Complete your profile to join mixers.
            </StateNote>
            <Button onClick={resumeOnboarding}>Finish your profile</Button>
          </div>
        ) : fullForMe ? (
          <div className="flex flex-col gap-3">
            <p className="text-sm text-muted-foreground">
              {planned
                ? "The seats on your side are taken. Join your side's waitlist and we'll let you know if one opens up."
                : "This mixer is full. Join the waitlist and we'll let you know if a seat opens up."}
            </p>
            <Button onClick={() => doJoin(true)} disabled={join.isPending}>
              <Hourglass aria-hidden /> {join.isPending ? 'Joining…' : 'Join the waitlist'}
            </Button>
          </div>
        ) : mixer.clash ? (
          <ClashNote clash={mixer.clash} />
        ) : mixer.upcomingLimitReached ? (
          <RefusalNote testId="mixer-limit" to="/mixers?tab=mine" action="Your mixers">
            {MIXER_MESSAGES.tooManyUpcoming}
          </RefusalNote>
        ) : (
          <div className="flex flex-col gap-3">
            <Button size="lg" onClick={() => doJoin(false)} disabled={join.isPending}>
              {join.isPending ? 'Joining…' : mixer.status === 'live' ? 'Join the conversation' : 'Join mixer'}
            </Button>
            <p className="flex items-center justify-center gap-1.5 text-xs text-muted-foreground">
              <CalendarClock className="size-3.5" aria-hidden />
              {mixer.status === 'live'
                ? "It's live now — jump straight in."
                : `Starts ${startsAtLabel(mixer.startsAt)}. You can leave any time before.`}
            </p>
          </div>
        )}
      </div>

      <AlertDialog.Root open={confirmLeave} onOpenChange={setConfirmLeave}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/45" />
          <AlertDialog.Content
            {...returnFocus}
            className="fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-border bg-card p-5 shadow-2xl outline-none sm:p-6"
          >
            <AlertDialog.Title className="font-display text-xl font-bold">Leave this mixer?</AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-sm text-muted-foreground">
              Your seat goes to the next person waiting
              {mixer.status === 'live' ? ', and you will leave the chat' : ''}. You can join again later if there's room.
            </AlertDialog.Description>
            <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <AlertDialog.Cancel asChild>
                <Button variant="outline">Stay</Button>
              </AlertDialog.Cancel>
              <Button variant="destructive" onClick={doLeave} disabled={leave.isPending}>
                {leave.isPending ? 'Leaving…' : 'Leave mixer'}
              </Button>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </Card>
  );
}

/**
 * A Join the server would refuse, said before the tap, with the way out: another mixer the member
 * holds overlaps this one (its page, to leave it or decline its held seat), or they hold as many
 * upcoming mixers as they may (their list).
 */
function ClashNote({ clash }: { clash: MixerClash }) {
  return (
    <RefusalNote testId="mixer-clash" to={`/mixers/${clash.id}`} action={`Open ${clash.title}`}>
      <span className="font-semibold">This overlaps with {clash.title}</span>
      {` (${startsAtLabel(clash.startsAt)}), `}
      {clash.invited
        ? "where a seat is held for you. Decline that seat first if you'd rather go to this one."
        : "which you're in. Leave that one first if you'd rather go to this one."}
    </RefusalNote>
  );
}

function RefusalNote({ testId, to, action, children }: { testId: string; to: string; action: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-3" data-testid={testId}>
      <StateNote icon={CalendarX2} tone="text-amber-600 dark:text-amber-400">
        {children}
      </StateNote>
      <Button variant="outline" asChild>
        <Link to={to}>{action}</Link>
      </Button>
    </div>
  );
}

/** Where the member stands (in, waitlisted, …): an icon in the state's colour and the words. */
function StateNote({ icon: Icon, tone, children }: { icon: LucideIcon; tone: string; children: React.ReactNode }) {
  return (
    <p className="flex items-start gap-2 text-sm">
      <Icon className={cn('mt-0.5 size-4 shrink-0', tone)} aria-hidden />
      <span>{children}</span>
    </p>
  );
}
