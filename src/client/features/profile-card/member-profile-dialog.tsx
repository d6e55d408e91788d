import { EyeOff, MessageCircle, RotateCw, Sparkles, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { Link, useLocation } from 'react-router';
import type { MemberCard } from '../../../shared/schemas/members';
import { Button } from '../../components/ui/button';
import { useReturnFocus } from '../../components/ui/use-return-focus';
import { ApiError } from '../../lib/api';
import { cn } from '../../lib/cn';
import { useMemberCard } from './api';
import { ProfileCard } from './profile-card';

export interface MemberRef {
  id: string;
  firstName: string;
}

function CardSkeleton() {
  return (
    <div role="status" aria-live="polite" className="animate-pulse">
      <span className="sr-only">Loading profile</span>
      <div className="h-20 bg-muted sm:h-24" aria-hidden />
      <div className="px-5 pb-6 sm:px-7" aria-hidden>
        <div className="-mt-12 size-24 rounded-full border-4 border-card bg-muted sm:-mt-10 sm:size-28" />
        <div className="mt-4 h-7 w-1/2 rounded-lg bg-muted" />
        <div className="mt-2 h-4 w-1/3 rounded bg-muted" />
        <div className="mt-6 space-y-2">
          <div className="h-4 rounded bg-muted" />
          <div className="h-4 w-5/6 rounded bg-muted" />
        </div>
        <div className="mt-6 flex flex-wrap gap-2">
          {[20, 28, 16, 24].map((w) => (
            <div key={w} className="h-7 rounded-full bg-muted" style={{ width: `${w * 4}px` }} />
          ))}
        </div>
        <div className="mt-6 h-24 rounded-2xl bg-muted" />
      </div>
    </div>
  );
}

function Unavailable({ name }: { name: string }) {
  return (
    <div className="flex flex-col items-center px-6 py-14 text-center" role="alert">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-muted text-muted-foreground">
        <EyeOff className="size-7" aria-hidden />
      </span>
      <h3 className="mt-4 font-display text-xl font-bold">This profile isn't available</h3>
      <p className="mt-2 max-w-sm text-sm text-muted-foreground">
        {name} may keep their profile to people they've shared a mixer with, or may have left Fancy.
      </p>
      <Dialog.Close asChild>
        <Button variant="outline" className="mt-6">
          Close
        </Button>
      </Dialog.Close>
    </div>
  );
}

function Failed({ message, onRetry, retrying }: { message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <div className="flex flex-col items-center px-6 py-14 text-center" role="alert">
      <p className="font-medium">We couldn't load this profile.</p>
      <p className="mt-1 max-w-sm text-sm text-muted-foreground">{message}</p>
      <Button variant="outline" className="mt-6" onClick={onRetry} disabled={retrying}>
        <RotateCw aria-hidden className={cn(retrying && 'animate-spin')} /> Try again
      </Button>
    </div>
  );
}

/** How you know them: the mixers you were both in. */
function SharedMixers({ member, onNavigate }: { member: MemberCard; onNavigate: () => void }) {
  if (member.isYou || member.sharedMixers.length === 0) return null;
  return (
    <p className="flex items-start gap-2 border-b border-border bg-accent/40 px-5 py-2.5 text-sm sm:px-7">
      <Sparkles className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
      <span>
        You were both in{' '}
        {member.sharedMixers.map((m, i) => (
          <span key={m.id}>
            {i > 0 && (i === member.sharedMixers.length - 1 ? ' and ' : ', ')}
            <Link to={`/mixers/${m.id}`} onClick={onNavigate} className="font-semibold text-primary underline-offset-4 hover:underline">
              {m.title}
            </Link>
          </span>
        ))}
      </span>
    </p>
  );
}

/**
 * Another member's profile card in a dialog (a full-height sheet on phones). Opening it counts
 * a profile view for them, once a day. `member` null means closed.
 */
export function MemberProfileDialog({ member, onOpenChange }: { member: MemberRef | null; onOpenChange: (open: boolean) => void }) {
  const query = useMemberCard(member?.id ?? null);
  const location = useLocation();
  const data = query.data;
  const name = data?.firstName ?? member?.firstName ?? 'Member';
  const title = data?.isYou ? 'Your profile card' : `${name}'s profile`;
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  const close = () => onOpenChange(false);
  const showMessage = data?.matchId && location.pathname !== `/messages/${data.matchId}`;
  const open = Boolean(member);
  const returnFocus = useReturnFocus(open);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <Dialog.Content
          className={cn(
            'fixed inset-0 z-50 flex flex-col bg-card text-card-foreground outline-none',
            'sm:inset-auto sm:top-1/2 sm:left-1/2 sm:max-h-[min(52rem,calc(100dvh-3rem))] sm:w-[calc(100vw-3rem)] sm:max-w-xl sm:-translate-x-1/2 sm:-translate-y-1/2 sm:overflow-hidden sm:rounded-3xl sm:border sm:border-border sm:shadow-2xl',
          )}
          data-testid="member-profile-dialog"
          {...returnFocus}
        >
          <div className="flex h-14 shrink-0 items-center gap-2 border-b border-border pr-2 pl-5 sm:pl-7">
            <Dialog.Title className="min-w-0 flex-1 truncate font-semibold">{title}</Dialog.Title>
            <Dialog.Close
              className="flex size-10 shrink-0 items-center justify-center rounded-full text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
              aria-label="Close"
            >
              <X className="size-5" aria-hidden />
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">
            {data?.isYou ? 'How your profile card looks.' : `${name}'s profile card on Fancy.`}
          </Dialog.Description>

          <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
            {query.isPending ? (
              <CardSkeleton />
            ) : notFound ? (
              <Unavailable name={name} />
            ) : query.isError || !data ? (
              <Failed
                message={query.error instanceof ApiError ? query.error.message : 'Please try again.'}
                onRetry={() => void query.refetch()}
                retrying={query.isFetching}
              />
            ) : (
              <>
                <SharedMixers member={data} onNavigate={close} />
                <ProfileCard
                  profile={{ ...data, fullName: data.firstName }}
                  age={data.age}
                  verified={data.verified}
                  avatarUrl={data.avatarUrl}
                  photoUrls={data.photos.map((p) => p.thumbUrl)}
                  expanded
                  className="rounded-none border-0 shadow-none"
                />
              </>
            )}
          </div>

          {showMessage && (
            <div className="shrink-0 border-t border-border p-3 sm:px-7">
              <Button asChild className="w-full">
                <Link to={`/messages/${data.matchId}`} onClick={close}>
                  <MessageCircle aria-hidden /> Message {name}
                </Link>
              </Button>
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
