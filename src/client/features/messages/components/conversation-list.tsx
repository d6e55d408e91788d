import { MessageCircleHeart } from 'lucide-react';
import { Link } from 'react-router';
import type { ConversationSummary } from '../../../../shared/messages-texts';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { Avatar } from '../../../components/ui/avatar';
import { useConversations } from '../api';
import { fullTime, listTime } from '../time';
import { EmptyState, ErrorState } from './states';

function preview(c: ConversationSummary, myId: string | undefined): string {
  if (!c.lastMessage) return `You matched! Say hello to ${c.other.firstName}.`;
  const body = c.lastMessage.body.replace(/\s+/g, ' ');
  return c.lastMessage.senderId === myId ? `You: ${body}` : body;
}

function ConversationRow({ c, active, myId, now }: { c: ConversationSummary; active: boolean; myId?: string; now: Date }) {
  const unread = c.unreadCount > 0;
  const ended = c.status !== 'matched';
  return (
    <li>
      <Link
        to={`/messages/${c.id}`}
        aria-current={active ? 'page' : undefined}
        className={cn(
          'flex items-center gap-3 rounded-2xl px-3 py-3 transition-colors hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring',
          active && 'bg-accent hover:bg-accent',
        )}
      >
        <span className="relative">
          <Avatar name={c.other.firstName} src={c.other.avatarUrl} className={cn('size-12 text-lg', ended && 'opacity-60 grayscale')} />
          {unread && <span className="absolute right-0 top-0 size-3.5 rounded-full border-2 border-background bg-primary" aria-hidden />}
        </span>
        <span className="block min-w-0 flex-1">
          <span className="flex items-baseline justify-between gap-2">
            <span className={cn('min-w-0 truncate', unread ? 'font-bold' : 'font-semibold')}>{c.other.firstName}</span>
            <time
              dateTime={c.updatedAt}
              title={fullTime(c.updatedAt)}
              className={cn('shrink-0 text-xs', unread ? 'font-semibold text-primary' : 'text-muted-foreground')}
            >
              {listTime(c.updatedAt, now)}
            </time>
          </span>
          <span className="mt-0.5 flex items-center justify-between gap-2">
            <span className={cn('min-w-0 truncate text-sm', unread ? 'font-medium text-foreground' : 'text-muted-foreground')}>
              {ended && (
                <span className="mr-1.5 rounded-full bg-muted px-1.5 py-0.5 text-[11px] font-semibold text-muted-foreground">Ended</span>
              )}
              {preview(c, myId)}
            </span>
            {unread && (
              <span className="inline-flex min-w-5 shrink-0 items-center justify-center rounded-full bg-primary px-1.5 text-[11px] font-bold leading-5 text-primary-foreground">
                {c.unreadCount > 99 ? '99+' : c.unreadCount}
                <span className="sr-only"> unread</span>
              </span>
            )}
          </span>
        </span>
      </Link>
    </li>
  );
}

function RowSkeleton() {
  return (
    <li className="flex items-center gap-3 px-3 py-3" aria-hidden>
      <span className="size-12 animate-pulse rounded-full bg-muted" />
      <span className="flex-1 space-y-2">
        <span className="block h-3.5 w-1/3 animate-pulse rounded bg-muted" />
        <span className="block h-3 w-2/3 animate-pulse rounded bg-muted" />
      </span>
    </li>
  );
}

/** Conversations ordered by latest message, with unread dots and counts; loads more on demand. */
export function ConversationList({ activeId, myId, now }: { activeId?: string; myId?: string; now: Date }) {
  const q = useConversations();
  if (q.isPending) {
    return (
      <ul className="grid grid-cols-1 gap-0.5 p-2" aria-busy="true" aria-label="Loading conversations">
        {Array.from({ length: 5 }, (_, i) => (
          <RowSkeleton key={i} />
        ))}
      </ul>
    );
  }
  if (q.isError && !q.data) {
    return <ErrorState message="We couldn't load your conversations." onRetry={() => void q.refetch()} />;
  }
  const conversations = q.data.pages.flatMap((p) => p.conversations);
  if (!conversations.length) {
    return (
      <EmptyState icon={MessageCircleHeart} title="No conversations yet" action={{ label: 'Browse mixers', to: '/mixers' }}>
        When you and someone fancy each other, your private chat opens here. Join a mixer, chat with the group, and see who you click with.
      </EmptyState>
    );
  }
  return (
    <>
      <ul className="grid grid-cols-1 gap-0.5 p-2">
        {conversations.map((c) => (
          <ConversationRow key={c.id} c={c} active={c.id === activeId} myId={myId} now={now} />
        ))}
      </ul>
      {q.hasNextPage && (
        <div className="px-4 pb-4">
          <Button variant="outline" size="sm" className="w-full" disabled={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
            {q.isFetchingNextPage ? 'Loading…' : 'Show older conversations'}
          </Button>
        </div>
      )}
    </>
  );
}
