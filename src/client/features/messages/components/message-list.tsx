import { ArrowDown } from 'lucide-react';
import { forwardRef, Fragment, type ReactNode } from 'react';
import type { DirectMessage } from '../../../../shared/realtime/events';
import { myReaction, withinEditWindow } from '../../../../shared/chat-lines';
import { cn } from '../../../lib/cn';
import { type LineAction, LineActions, type PendingLine, PendingStatus, ReactionChips, ReplyQuote, SkipToComposer } from '../../chat';
import { useHiddenWordMatcher } from '../../../components/safety/hidden-words';
import { ContactNote, LineNotice, ScamWarning } from '../../../components/safety/line-notice';
import { clockTime, dayLabel, fullTime, isSameDay } from '../time';
import { CollapsedLine, type CollapsedReason, collapsedReason, NO_PRIVACY, quoteFolded } from '../../chat';
import type { LinePrivacy } from '../../../../shared/schemas/line-privacy';

/** What a message's menu does (reply, edit, unsend, react, jump to a quoted original, extra entries). */
export interface LineHandlers {
  reply: (m: DirectMessage) => void;
  edit: (m: DirectMessage) => void;
  unsend: (m: DirectMessage) => void;
  react: (m: DirectMessage, emoji: string) => void;
  jump: (id: string) => void;
  extra: (m: DirectMessage) => LineAction[];
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
  quote,
  edited,
}: {
  own: boolean;
  body: string;
  createdAt: string;
  first: boolean;
  last: boolean;
  children?: React.ReactNode;
  muted?: boolean;
  quote?: ReactNode;
  edited?: boolean;
}) {
  return (
    <div className={cn('flex', own ? 'justify-end' : 'justify-start', first ? 'mt-3' : 'mt-0.5')}>
      <div
        className={cn(
          // The line around it sets the width (a share of the thread): a share of that share wrapped short lines early.
          'max-w-full whitespace-pre-wrap rounded-3xl px-3.5 py-2 text-[15px] leading-snug shadow-sm',
          own ? 'bg-primary text-primary-foreground' : 'bg-card text-card-foreground ring-1 ring-border',
          own ? !last && 'rounded-br-lg' : !last && 'rounded-bl-lg',
          own ? !first && 'rounded-tr-lg' : !first && 'rounded-tl-lg',
          muted && 'opacity-70',
        )}
      >
        {quote}
        {body}
        <time
          dateTime={createdAt}
          title={fullTime(createdAt)}
          className={cn('float-right ml-3 mt-1.5 text-[11px] leading-none', own ? 'text-primary-foreground/90' : 'text-muted-foreground')}
        >
          {edited && <span className="mr-1">edited ·</span>}
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
  pending: PendingLine[];
  myId?: string;
  otherName: string;
  now: Date;
  /** Id of the first message that was unread when the thread opened. */
  firstUnreadId: string | null;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  onRetry: (p: PendingLine) => void;
  handlers: LineHandlers;
  /** Open conversation: reply, react and edit are offered (unsend always is, for my own). */
  canWrite: boolean;
  onScroll: () => void;
  intro: React.ReactNode;
  showJump: boolean;
  onJump: () => void;
  /** Lines I hid collapse to "Hidden by you — show" (issue 30; `features/chat/collapsed`). */
  privacy: LinePrivacy;
  onUnhide?: (lineId: string) => void;
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
    showJump,
    onJump,
    handlers,
    canWrite,
    privacy,
    onUnhide,
  },
  ref,
) {
  const lastOwnIndex = messages.findLastIndex((m) => m.senderId === myId);
  const hides = useHiddenWordMatcher();
  // Issue 30: the calm note shows once per conversation, above the first line with contact details.
  const contactNoteAt = messages.find((m) => m.senderId !== myId && m.flag === 'contact')?.id;
  return (
    <div className="relative min-h-0 flex-1">
      {canWrite && <SkipToComposer composerId="dm-composer" />}
      <div
        ref={ref}
        onScroll={onScroll}
        role="log"
        aria-label={`Messages with ${otherName}`}
        // New messages are read out by the thread's announcer, not reactions or edits (issue 29).
        aria-live="off"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard to scroll it (WCAG 2.1.1)
        tabIndex={0}
        className="h-full overflow-y-auto overscroll-contain px-3 pb-4 pt-2 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring md:px-6"
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
          // One rule for what shows collapsed, which the thread's announcer follows too (issue 29).
          const collapsed = collapsedReason(m, myId, privacy, hides);
          const hiddenByMe = collapsed === 'hidden' || collapsed === 'muted';
          const line = (
            <MessageLine
              m={m}
              own={own}
              first={first}
              last={last}
              otherName={otherName}
              myId={myId}
              handlers={handlers}
              canWrite={canWrite}
              collapsed={hiddenByMe ? collapsedReason(m, myId, NO_PRIVACY, hides) : collapsed}
              quoteFolded={quoteFolded(m.replyTo, myId, privacy, hides)}
            />
          );
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
              {m.id === contactNoteAt && <ContactNote />}
              {!own && m.flag === 'scam' && !m.unsentAt && (
                <ScamWarning
                  line={{ id: m.id, body: m.body, sender: { id: m.senderId, firstName: otherName }, matchId: m.matchId, flag: m.flag }}
                />
              )}
              {hiddenByMe ? (
                <CollapsedLine reason={collapsed} name={otherName} inset={false} className="mt-2" onUnhide={() => onUnhide?.(m.id)}>
                  {line}
                </CollapsedLine>
              ) : (
                line
              )}
              {i === lastOwnIndex && m.isRead && pending.length === 0 && (
                <p className="mt-1 pr-1 text-right text-xs font-medium text-muted-foreground">Seen</p>
              )}
            </Fragment>
          );
        })}
        {pending.map((p, i) => (
          <Fragment key={p.clientKey}>
            <span className="sr-only">You:</span>
            <div data-pending-line={p.status} className="ml-auto flex max-w-[82%] flex-col items-end md:max-w-[68%]">
              <Bubble
                own
                body={p.body}
                createdAt={p.createdAt}
                first={i === 0 && messages[messages.length - 1]?.senderId !== myId}
                last={i === pending.length - 1}
                muted={p.status === 'sending'}
                quote={p.replyTo ? <ReplyQuote quote={p.replyTo} own folded={quoteFolded(p.replyTo, myId, privacy, hides)} /> : undefined}
              />
              <PendingStatus line={p} onRetry={() => onRetry(p)} />
            </div>
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

/** One message with its menu, quote, reactions and "edited"/unsent states. */
function MessageLine({
  m,
  own,
  first,
  last,
  otherName,
  myId,
  handlers,
  canWrite,
  collapsed,
  quoteFolded: folded,
}: {
  m: DirectMessage;
  own: boolean;
  first: boolean;
  last: boolean;
  otherName: string;
  myId?: string;
  handlers: LineHandlers;
  canWrite: boolean;
  /** Why it shows collapsed (`collapsedReason`): flagged or holding one of my hidden words, it arrives folded (issue 30). */
  collapsed: CollapsedReason | null;
  /** The quote of the message it answers shows folded for me (`quoteFolded`). */
  quoteFolded: boolean;
}) {
  const unsent = Boolean(m.unsentAt);
  const who = own ? 'You' : otherName;
  const label = unsent
    ? `${who} unsent a message, ${clockTime(m.createdAt)}`
    : `${who} at ${clockTime(m.createdAt)}${m.replyTo ? ', replying' : ''}: ${collapsed ? 'message hidden' : m.body}${m.editedAt ? ' (edited)' : ''}`;
  return (
    <div className={cn('flex flex-col', own ? 'items-end' : 'items-start')}>
      <LineActions
        lineId={m.id}
        label={label}
        side={own ? 'right' : 'left'}
        className="max-w-[88%] md:max-w-[72%]"
        myReaction={myReaction(m.reactions, myId)}
        onReply={canWrite && !unsent ? () => handlers.reply(m) : undefined}
        onReact={canWrite && !unsent ? (emoji) => handlers.react(m, emoji) : undefined}
        onEdit={canWrite && own && !unsent && withinEditWindow(m.createdAt) ? () => handlers.edit(m) : undefined}
        onUnsend={own && !unsent ? () => handlers.unsend(m) : undefined}
        extraActions={handlers.extra(m)}
      >
        {unsent ? (
          <div className={cn('flex', first ? 'mt-3' : 'mt-0.5')}>
            <p className="rounded-3xl border border-dashed border-border px-3.5 py-2 text-sm italic text-muted-foreground">
              {own ? 'You unsent a message' : `${otherName} unsent a message`}
            </p>
          </div>
        ) : own ? (
          <Bubble
            own={own}
            body={m.body}
            createdAt={m.createdAt}
            first={first}
            last={last}
            edited={Boolean(m.editedAt)}
            quote={m.replyTo ? <ReplyQuote quote={m.replyTo} own={own} onJump={handlers.jump} folded={folded} /> : undefined}
          />
        ) : (
          // Flagged lines and hidden words arrive folded, with "Does this bother you?" (issue 30).
          <div className={cn('flex justify-start', first ? 'mt-3' : 'mt-0.5')}>
            <LineNotice
              line={{ id: m.id, body: m.body, sender: { id: m.senderId, firstName: otherName }, matchId: m.matchId, flag: m.flag ?? null }}
              collapsed={collapsed}
            >
              <Bubble
                own={own}
                body={m.body}
                createdAt={m.createdAt}
                first={false}
                last={last}
                edited={Boolean(m.editedAt)}
                quote={m.replyTo ? <ReplyQuote quote={m.replyTo} own={own} onJump={handlers.jump} folded={folded} /> : undefined}
              />
            </LineNotice>
          </div>
        )}
      </LineActions>
      {!unsent && (
        <ReactionChips
          groups={m.reactions}
          me={myId}
          align={own ? 'end' : 'start'}
          onToggle={canWrite ? (emoji) => handlers.react(m, emoji) : undefined}
        />
      )}
    </div>
  );
}
