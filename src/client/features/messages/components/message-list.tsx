import { ArrowDown, Flag, RotateCw } from 'lucide-react';
import { forwardRef, Fragment } from 'react';
import type { DirectMessage } from '../../../../shared/realtime/events';
import { cn } from '../../../lib/cn';
import { clockTime, dayLabel, fullTime, isSameDay } from '../time';

/** A message being sent (not yet confirmed by the server) or one that failed. */
export interface PendingMessage {
  tempId: string;
  body: string;
  createdAt: string;
  status: 'sending' | 'failed';
  error?: string;
}

const GROUP_MS = 5 * 60_000;

function Bubble({
  own,
  body,
  createdAt,
  first,
  last,
  children,
  muted,
}: {
  own: boolean;
  body: string;
  createdAt: string;
  first: boolean;
  last: boolean;
  children?: React.ReactNode;
  muted?: boolean;
}) {
  return (
    <div className={cn('flex', own ? 'justify-end' : 'justify-start', first ? 'mt-3' : 'mt-0.5')}>
      <div
        className={cn(
          'max-w-[82%] whitespace-pre-wrap break-words rounded-3xl px-3.5 py-2 text-[15px] leading-snug shadow-sm md:max-w-[68%]',
          own ? 'bg-primary text-primary-foreground' : 'bg-card text-card-foreground ring-1 ring-border',
          own ? !last && 'rounded-br-lg' : !last && 'rounded-bl-lg',
          own ? !first && 'rounded-tr-lg' : !first && 'rounded-tl-lg',
          muted && 'opacity-70',
        )}
      >
        {body}
        <time
          dateTime={createdAt}
          title={fullTime(createdAt)}
          className={cn('float-right ml-3 mt-1.5 text-[11px] leading-none', own ? 'text-primary-foreground/90' : 'text-muted-foreground')}
        >
          {clockTime(createdAt)}
        </time>
        {children}
      </div>
    </div>
  );
}

function DaySeparator({ iso, now }: { iso: string; now: Date }) {
  return (
    <div className="mb-1 mt-5 flex justify-center">
      <span className="rounded-full bg-muted px-3 py-1 text-xs font-medium text-muted-foreground">{dayLabel(iso, now)}</span>
    </div>
  );
}

interface Props {
  messages: DirectMessage[];
  pending: PendingMessage[];
  myId?: string;
  otherName: string;
  now: Date;
  /** Id of the first message that was unread when the thread opened. */
  firstUnreadId: string | null;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  onRetry: (p: PendingMessage) => void;
  onScroll: () => void;
  intro: React.ReactNode;
  showJump: boolean;
  onJump: () => void;
  /** Opens the report dialog for the other member's message (issue 30). */
  onReport?: (m: DirectMessage) => void;
}

/** The thread: day separators, grouped bubbles (yours on the right), "Seen", and pending sends. */
export const MessageList = forwardRef<HTMLDivElement, Props>(function MessageList(
  {
    messages,
    pending,
    myId,
    otherName,
    now,
    firstUnreadId,
    hasOlder,
    loadingOlder,
    onLoadOlder,
    onRetry,
    onScroll,
    intro,
    onReport,
    showJump,
    onJump,
  },
  ref,
) {
  const lastOwnIndex = messages.findLastIndex((m) => m.senderId === myId);
  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={ref}
        onScroll={onScroll}
        role="log"
        aria-label={`Messages with ${otherName}`}
        aria-live="polite"
        aria-relevant="additions"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard to scroll it (WCAG 2.1.1)
        tabIndex={0}
        className="h-full overflow-y-auto overscroll-contain px-3 pb-4 pt-2 focus-visible:outline-none md:px-6"
      >
        {hasOlder ? (
          <div className="flex justify-center py-3">
            <button
              type="button"
              onClick={onLoadOlder}
              disabled={loadingOlder}
              className="rounded-full px-3 py-1.5 text-xs font-semibold text-primary hover:bg-accent disabled:opacity-60"
            >
              {loadingOlder ? 'Loading earlier messages…' : 'Load earlier messages'}
            </button>
          </div>
        ) : (
          intro
        )}
        {messages.map((m, i) => {
          const prev = messages[i - 1];
          const next = messages[i + 1];
          const own = m.senderId === myId;
          const newDay = !prev || !isSameDay(prev.createdAt, m.createdAt);
          const nextNewDay = !next || !isSameDay(m.createdAt, next.createdAt);
          const first = newDay || prev.senderId !== m.senderId || Date.parse(m.createdAt) - Date.parse(prev.createdAt) > GROUP_MS;
          const last = nextNewDay || next.senderId !== m.senderId || Date.parse(next.createdAt) - Date.parse(m.createdAt) > GROUP_MS;
          return (
            <Fragment key={m.id}>
              {newDay && <DaySeparator iso={m.createdAt} now={now} />}
              {m.id === firstUnreadId && (
                <div data-new-divider className="my-3 flex items-center gap-3 text-xs font-semibold text-primary">
                  <span className="h-px flex-1 bg-primary/30" aria-hidden />
                  New messages
                  <span className="h-px flex-1 bg-primary/30" aria-hidden />
                </div>
              )}
              <span className="sr-only">{own ? 'You' : otherName}:</span>
              <Bubble own={own} body={m.body} createdAt={m.createdAt} first={first} last={last} />
              {/* Temporary entry until the shared line menu (issue 30): report the other member's message. */}
              {!own && onReport && (
                <button
                  type="button"
                  onClick={() => onReport(m)}
                  className="ml-2 mt-0.5 inline-flex items-center gap-1 rounded-full px-1.5 py-0.5 text-[11px] text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
                  aria-label={`Report ${otherName}'s message`}
                >
                  <Flag className="size-3" aria-hidden /> Report
                </button>
              )}
              {i === lastOwnIndex && m.isRead && pending.length === 0 && (
                <p className="mt-1 pr-1 text-right text-xs font-medium text-muted-foreground">Seen</p>
              )}
            </Fragment>
          );
        })}
        {pending.map((p, i) => (
          <Fragment key={p.tempId}>
            <span className="sr-only">You:</span>
            <Bubble
              own
              body={p.body}
              createdAt={p.createdAt}
              first={i === 0 && messages[messages.length - 1]?.senderId !== myId}
              last={i === pending.length - 1}
              muted={p.status === 'sending'}
            />
            {p.status === 'sending' ? (
              <p className="mt-1 pr-1 text-right text-xs text-muted-foreground">Sending…</p>
            ) : (
              <p className="mt-1 flex items-center justify-end gap-2 pr-1 text-xs font-medium text-destructive">
                {p.error ?? 'Not sent.'}
                <button
                  type="button"
                  onClick={() => onRetry(p)}
                  className="inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-primary underline-offset-2 hover:underline"
                >
                  <RotateCw className="size-3" aria-hidden /> Retry
                </button>
              </p>
            )}
          </Fragment>
        ))}
      </div>
      {showJump && (
        <button
          type="button"
          onClick={onJump}
          className="absolute bottom-3 left-1/2 flex -translate-x-1/2 items-center gap-1.5 rounded-full bg-foreground px-3.5 py-2 text-xs font-semibold text-background shadow-lg"
        >
          <ArrowDown className="size-3.5" aria-hidden /> New message
        </button>
      )}
    </div>
  );
});
