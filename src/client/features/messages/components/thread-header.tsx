import { VerifiedBadge } from '../../../components/ui/verified-badge';
import { ArrowLeft, Ban, Flag, HeartCrack, MoreVertical, ShieldCheck } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { Link } from 'react-router';
import type { ConversationDetail } from '../../../../shared/messages-texts';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { cn } from '../../../lib/cn';
import { MemberProfileDialog } from '../../profile-card';
import { Avatar } from '../../../components/ui/avatar';
import { asAction, BlockDialog, ReportDialog, UnmatchDialog } from '../../../components/safety/safety-dialogs';
import { useBlock, useUnblock, useUnmatch } from '../api';
import { useLiveRoomState } from '../../chat';
import { MenuContent, MenuItem } from '../../../components/ui/menu';

/** Back (phones), who you are talking to, where you met, and the safety menu. */
export function ThreadHeader({ conversation }: { conversation: ConversationDetail }) {
  const toast = useToast();
  const [dialog, setDialog] = useState<'unmatch' | 'block' | 'report' | 'profile' | null>(null);
  const unblock = useUnblock(conversation.id);
  const unmatch = useUnmatch(conversation.id);
  const block = useBlock(conversation.id);
  const { other, mixer } = conversation;
  const name = other.firstName;
  const ended = conversation.status !== 'matched';
  const subtitle = ended ? 'Conversation ended' : mixer ? `Met at ${mixer.title}` : 'Matched';
  const { present } = useLiveRoomState(`conversation:${conversation.id}`);
  const here = !ended && present.has(other.id);

  return (
    <header className="flex h-16 shrink-0 items-center gap-2 border-b border-border bg-background/95 px-2 backdrop-blur md:px-4">
      <BackToMessages className="lg:hidden" />
      {/* The avatar and the name both open the profile card; the name is the keyboard stop. */}
      <button
        type="button"
        tabIndex={-1}
        onClick={() => setDialog('profile')}
        aria-label={`View ${name}'s profile`}
        className="shrink-0 cursor-pointer rounded-full"
      >
        <Avatar name={name} src={other.avatarUrl} className={cn('size-10', ended && 'opacity-60 grayscale')} />
      </button>
      <div className="min-w-0 flex-1 pl-1">
        <h1 id="thread-title" className="truncate font-semibold leading-tight">
          <button
            type="button"
            onClick={() => setDialog('profile')}
            title={`View ${name}'s profile`}
            className="max-w-full cursor-pointer truncate rounded text-left underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
          >
            {name}
            {other.verified && <VerifiedBadge className="ml-1.5 align-middle" label={false} />}
            {other.city && <span className="font-normal text-muted-foreground"> · {other.city}</span>}
          </button>
        </h1>
        <p className={cn('truncate text-xs', ended ? 'font-medium text-destructive' : 'text-muted-foreground')}>
          {here && <span className="mr-1.5 inline-block size-2 rounded-full bg-success align-middle" aria-hidden />}
          {here ? `Here now · ${subtitle}` : subtitle}
        </p>
      </div>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          className="flex size-10 shrink-0 items-center justify-center rounded-full hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
          aria-label={`Options for your conversation with ${name}`}
        >
          <MoreVertical className="size-5" aria-hidden />
        </DropdownMenu.Trigger>
        <MenuContent className="min-w-52">
          {!ended && (
            <MenuItem icon={HeartCrack} onSelect={() => setDialog('unmatch')}>
              Unmatch
            </MenuItem>
          )}
          <MenuItem icon={Flag} onSelect={() => setDialog('report')}>
            Report {name}
          </MenuItem>
          {conversation.blockedByMe ? (
            <MenuItem
              icon={ShieldCheck}
              disabled={unblock.isPending}
              onSelect={() =>
                unblock.mutate(other.id, {
                  onSuccess: () => toast({ title: `${name} unblocked`, description: 'You may meet again in a mixer.' }),
                  onError: (err) =>
                    toast({
                      variant: 'destructive',
                      title: 'Error',
                      description: err instanceof ApiError ? err.message : 'Please try again.',
                    }),
                })
              }
            >
              Unblock {name}
            </MenuItem>
          ) : (
            <MenuItem icon={Ban} destructive onSelect={() => setDialog('block')}>
              Block {name}
            </MenuItem>
          )}
        </MenuContent>
      </DropdownMenu.Root>

      <MemberProfileDialog member={dialog === 'profile' ? other : null} onOpenChange={(o) => !o && setDialog(null)} />
      <UnmatchDialog open={dialog === 'unmatch'} onOpenChange={(o) => !o && setDialog(null)} name={name} unmatch={asAction(unmatch)} />
      <BlockDialog open={dialog === 'block'} onOpenChange={(o) => !o && setDialog(null)} member={other} block={asAction(block)} />
      {dialog === 'report' && (
        <ReportDialog
          open
          onOpenChange={(o) => !o && setDialog(null)}
          member={other}
          mixerId={mixer?.id}
          block={conversation.blockedByMe ? undefined : asAction(block)}
        />
      )}
    </header>
  );
}

/** The arrow back to the list, for phones, where the thread has the screen to itself. */
export function BackToMessages({ className }: { className?: string }) {
  return (
    <Link
      to="/messages"
      aria-label="Back to messages"
      className={cn('flex size-10 shrink-0 items-center justify-center rounded-full hover:bg-muted', className)}
    >
      <ArrowLeft className="size-5" aria-hidden />
    </Link>
  );
}
