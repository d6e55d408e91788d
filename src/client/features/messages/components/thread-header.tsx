import { VerifiedBadge } from '../../../components/ui/verified-badge';
import { ArrowLeft, Ban, Flag, HeartCrack, MoreVertical, ShieldCheck } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { Link } from 'react-router';
import type { ConversationDetail } from '../../../../shared/schemas/messages';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { cn } from '../../../lib/cn';
import { MemberProfileDialog } from '../../profile-card';
import { Avatar } from '../../../components/ui/avatar';
import { asAction, BlockDialog, ReportDialog, UnmatchDialog } from '../../../components/safety/safety-dialogs';
import { useBlock, useUnblock, useUnmatch } from '../api';

const item =
  'flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-2 text-sm outline-none data-[highlighted]:bg-muted data-[disabled]:opacity-50';

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

  return (
    <header className="flex h-16 shrink-0 items-center gap-2 border-b border-border bg-background/95 px-2 backdrop-blur md:px-4">
      <Link
        to="/messages"
        aria-label="Back to messages"
        className="flex size-10 shrink-0 items-center justify-center rounded-full hover:bg-muted md:hidden"
      >
        <ArrowLeft className="size-5" aria-hidden />
      </Link>
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
        <p className={cn('truncate text-xs', ended ? 'font-medium text-destructive' : 'text-muted-foreground')}>{subtitle}</p>
      </div>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          className="flex size-10 shrink-0 items-center justify-center rounded-full hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
          aria-label={`Options for your conversation with ${name}`}
        >
          <MoreVertical className="size-5" aria-hidden />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={6}
            className="z-50 min-w-52 rounded-2xl border border-border bg-card p-1.5 text-card-foreground shadow-xl"
          >
            {!ended && (
              <DropdownMenu.Item className={item} onSelect={() => setDialog('unmatch')}>
                <HeartCrack className="size-4 text-muted-foreground" aria-hidden /> Unmatch
              </DropdownMenu.Item>
            )}
            <DropdownMenu.Item className={item} onSelect={() => setDialog('report')}>
              <Flag className="size-4 text-muted-foreground" aria-hidden /> Report {name}
            </DropdownMenu.Item>
            {conversation.blockedByMe ? (
              <DropdownMenu.Item
                className={item}
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
                <ShieldCheck className="size-4 text-muted-foreground" aria-hidden /> Unblock {name}
              </DropdownMenu.Item>
            ) : (
              <DropdownMenu.Item className={cn(item, 'text-destructive')} onSelect={() => setDialog('block')}>
                <Ban className="size-4" aria-hidden /> Block {name}
              </DropdownMenu.Item>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
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
