import { DEFAULT_TZ } from '../../../shared/constants';
import { useQueryClient } from '@tanstack/react-query';
import { EyeOff, Flag, Heart, Lock } from 'lucide-react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link, type LoaderFunctionArgs, useParams } from 'react-router';
import { preloadQueries } from '../../lib/query';
import { checkMessageBody } from '../../../shared/member-text';
import { type ConversationDetail, DM_MAX_LENGTH, DM_MESSAGES, DM_PAGE_SIZE } from '../../../shared/messages-texts';
import { AreYouSureDialog, guardOutcome, useSendGuard } from '../../components/safety/send-guard';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api';
import { useRealtimeEvents } from '../../lib/realtime';
import { useReportLine } from '../chat';
import { useAuth } from '../../lib/auth';
import { Avatar } from '../../components/ui/avatar';
import {
  conversationQuery,
  markReadInCache,
  messageKeys,
  messagesQuery,
  patchMessages,
  upsertMessage,
  useConversation,
  useMarkRead,
  useMessageActions,
  useMessages,
  useSendMessage,
} from './api';
import { TypingIndicator, useLiveRoomEvents, usePinnedToBottom, useTypingSender } from '../chat';
import { Composer } from './components/composer';
import { type LineHandlers, MessageList } from './components/message-list';
import type { DirectMessage } from '../../../shared/realtime/events';
import { newClientKey, snippetOf } from '../../../shared/chat-lines';
import {
  applyLineChange,
  applyLineReaction,
  type LineAction,
  LiveAnnouncer,
  type PendingLine,
  useDraft,
  useJumpToLine,
  useLineWindow,
  usePendingLines,
} from '../chat';
import { ErrorState } from './components/states';
import { BackToMessages, ThreadHeader } from './components/thread-header';
import { useNow, usePageVisible } from './hooks';
import { usePageTitle } from '../../lib/use-page-title';
import { announcementOf, useHideLine, useLinePrivacy } from '../chat';
import { useHiddenWordMatcher } from '../../components/safety/hidden-words';
import { LineReportContext } from '../../components/safety/line-notice';

/** /messages/{matchId}: one conversation, live. Phones see it full-screen with a back button. */
/** The conversation and its newest messages, loaded with the page (decision 018). */
export const preload = ({ params }: LoaderFunctionArgs) => {
  const id = params.id ?? '';
  return preloadQueries((client) => [
    client.ensureQueryData({ ...conversationQuery(id), revalidateIfStale: true }),
    client.ensureInfiniteQueryData({ ...messagesQuery(id), revalidateIfStale: true }),
  ]);
};

export default function ThreadPage() {
  const { id = '' } = useParams();
  // A fresh thread state (draft, scroll, pending sends) for every conversation.
  return <Thread key={id} id={id} />;
}

function Frame({ children, labelledBy }: { children: React.ReactNode; labelledBy?: string }) {
  return (
    <section
      aria-labelledby={labelledBy}
      aria-label={labelledBy ? undefined : 'Conversation'}
      data-covers-shell
      className="fixed inset-0 z-40 flex flex-col bg-background md:static md:z-auto md:min-w-0 md:flex-1"
    >
      {children}
    </section>
  );
}

function Thread({ id }: { id: string }) {
  const conversation = useConversation(id);
  if (conversation.isPending) {
    return (
      <Frame>
        <div className="flex h-16 items-center gap-3 border-b border-border px-4">
          <span className="size-10 animate-pulse rounded-full bg-muted" />
          <span className="h-4 w-32 animate-pulse rounded bg-muted" />
        </div>
        <div className="flex flex-1 items-center justify-center">
          <Spinner label="Loading conversation" />
        </div>
      </Frame>
    );
  }
  if (conversation.isError) {
    const err = conversation.error;
    const gone = err instanceof ApiError && (err.status === 404 || err.status === 403 || err.status === 400);
    return (
      <Frame>
        <div className="flex h-16 items-center border-b border-border px-2 lg:hidden">
          <BackToMessages />
        </div>
        <div className="flex flex-1 flex-col items-center justify-center">
          {gone ? (
            <div role="alert" className="px-6 text-center">
              <h1 className="font-display text-xl font-bold">We couldn’t open this conversation</h1>
              <p className="mt-2 text-sm text-muted-foreground">{err.message}</p>
              <Button asChild variant="outline" className="mt-5">
                <Link to="/messages">Back to messages</Link>
              </Button>
            </div>
          ) : (
            <ErrorState message="We couldn't load this conversation." onRetry={() => void conversation.refetch()} />
          )}
        </div>
      </Frame>
    );
  }
  return <LoadedThread conversation={conversation.data} />;
}

function LoadedThread({
  conversation,
  lineActions,
}: {
  conversation: ConversationDetail;
  /** More entries for a message's menu (e.g. the safety actions). */
  lineActions?: (message: DirectMessage) => LineAction[];
}) {
  const id = conversation.id;
  const name = conversation.other.firstName;
  usePageTitle(`${name} · Messages`);
  const auth = useAuth();
  const myId = auth.user?.id;
  const qc = useQueryClient();
  const toast = useToast();
  const messagesQ = useMessages(id);
  // Typing both ways and whether the other is here now (issue 29).
  useLiveRoomEvents(`conversation:${id}`);
  const typing = useTypingSender(`conversation:${id}`);
  const privacy = useLinePrivacy({ matchId: id });
  const hides = useHiddenWordMatcher();
  const { hide: hideLine, show: unhide } = useHideLine({ matchId: id });
  const send = useSendMessage(id);
  const { mutateAsync: markReadAsync } = useMarkRead(id);
  const visible = usePageVisible();
  const now = useNow();
  const actions = useMessageActions(id);
  const [draft, setDraft] = useDraft(`conversation:${id}`);
  const draftRef = useRef(draft);
  draftRef.current = draft;
  const pendingLines = usePendingLines(`conversation:${id}`);
  const [replyTo, setReplyTo] = useState<DirectMessage | null>(null);
  const [editing, setEditing] = useState<DirectMessage | null>(null);
  const [editText, setEditText] = useState('');
  const [announcement, setAnnouncement] = useState('');
  const guard = useSendGuard();
  const [showJump, setShowJump] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const composer = useRef<{ focus(): void }>(null);
  const atBottom = useRef(true);
  const restore = useRef<{ height: number; top: number } | null>(null);
  const edges = useRef<{ first?: string; last?: string; pending: number; ready: boolean }>({ pending: 0, ready: false });

  const messages = useMemo(() => (messagesQ.data ? [...messagesQ.data.pages].reverse().flatMap((p) => p.messages) : []), [messagesQ.data]);
  // A pending line whose first copy already arrived is shown once, as sent.
  const sentKeys = useMemo(() => new Set(messages.map((m) => m.clientKey).filter(Boolean)), [messages]);
  const pending = useMemo(() => pendingLines.lines.filter((p) => !sentKeys.has(p.clientKey)), [pendingLines.lines, sentKeys]);

  // The first message that was unread when the thread opened gets a "New messages" divider.
  const firstUnread = useRef<string | null | undefined>(undefined);
  if (firstUnread.current === undefined && messagesQ.data) {
    firstUnread.current = messages.find((m) => !m.isRead && m.senderId !== myId)?.id ?? null;
  }
  // The newest lines (or from just above the first unread one), more as the top comes into view.
  const lineWindow = useLineWindow(messages, firstUnread.current, messagesQ, DM_PAGE_SIZE);
  const shown = lineWindow.lines;
  const windowRef = useRef(lineWindow);
  windowRef.current = lineWindow;

  useRealtimeEvents((event) => {
    if (event.type === 'dm.message' && event.message.matchId === id) {
      const message = event.message;
      // Our own message echoed back before the POST answered replaces the pending bubble (same client key).
      // A line the screen shows collapsed is announced without its words (issue 29).
      if (message.senderId !== myId) setAnnouncement(announcementOf(message, name, myId, privacy, hides));
      else if (message.clientKey) pendingLines.remove(message.clientKey);
      upsertMessage(qc, message);
    } else if (event.type === 'dm.line.changed' && event.matchId === id) {
      patchMessages(qc, id, (m) => applyLineChange(m, event));
    } else if (event.type === 'dm.reaction' && event.matchId === id) {
      patchMessages(qc, id, (m) => applyLineReaction(m, event.messageId, event.user, event.emoji));
    } else if (event.type === 'dm.read' && event.matchId === id && event.readerId !== myId) {
      markReadInCache(qc, id, (m) => m.senderId === myId);
    } else if (event.type === 'dm.removed' && event.matchId === id) {
      // A moderator removed a reported message (issue 30).
      void qc.invalidateQueries({ queryKey: messageKeys.messages(id) });
    } else if (event.type === 'match.ended' && event.matchId === id) {
      void qc.invalidateQueries({ queryKey: messageKeys.conversation(id) });
    }
  }, `conversation:${id}`);

  const { reportLine, dialog: reportDialog } = useReportLine({ kind: 'direct', id });

  // Opening (and keeping open) the thread reads what the other person sent.
  const unreadIds = useMemo(() => messages.filter((m) => !m.isRead && m.senderId !== myId).map((m) => m.id), [messages, myId]);
  const reading = useRef(false);
  useEffect(() => {
    if (!unreadIds.length || !visible || reading.current) return;
    reading.current = true;
    markReadAsync(unreadIds).then(
      () => {
        reading.current = false;
      },
      () => {
        reading.current = false;
      },
    );
  }, [unreadIds, visible, markReadAsync]);

  // Desktop: ready to type straight away (phones would pop the keyboard over the thread).
  useEffect(() => {
    if (conversation.canSend && window.matchMedia('(min-width: 768px)').matches) composer.current?.focus();
  }, [conversation.canSend]);

  // Scroll: to the bottom (or the first unread) on open, kept in place when older messages load,
  // following new ones when you are at the bottom, else a "New message" button.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !messagesQ.data) return;
    const first = shown[0]?.id;
    const last = shown.at(-1)?.id;
    const prev = edges.current;
    if (!prev.ready) {
      el.scrollTop = el.scrollHeight;
      const divider = el.querySelector<HTMLElement>('[data-new-divider]');
      if (divider && divider.offsetTop < el.scrollTop) el.scrollTop = divider.offsetTop - 12;
    } else if (restore.current && first !== prev.first) {
      el.scrollTop = el.scrollHeight - restore.current.height + restore.current.top;
      restore.current = null;
    } else if (last !== prev.last || pending.length > prev.pending) {
      const mine = pending.length > prev.pending || shown.at(-1)?.senderId === myId;
      if (mine || atBottom.current) el.scrollTo({ top: el.scrollHeight, behavior: prev.ready ? 'smooth' : 'auto' });
      else setShowJump(true);
    }
    edges.current = { first, last, pending: pending.length, ready: true };
  }, [shown, pending, messagesQ.data, myId]);

  // The latest message stays in view when the pane shrinks (phone keyboard, composer → read-only notice) or a line grows.
  usePinnedToBottom(scroller, atBottom, messagesQ.isPending);

  const loadOlder = () => {
    const el = scroller.current;
    if (!el || !lineWindow.more || messagesQ.isFetchingNextPage) return;
    restore.current = { height: el.scrollHeight, top: el.scrollTop };
    void lineWindow.older().then((r) => {
      if (r?.isError) restore.current = null;
    });
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (atBottom.current) setShowJump(false);
    if (el.scrollTop < 120 && edges.current.ready && !restore.current) loadOlder();
  };

  const deliver = (p: PendingLine) => {
    pendingLines.update(p.clientKey, { status: 'sending', error: undefined });
    send.mutateAsync({ body: p.body, clientKey: p.clientKey, replyToId: p.replyTo?.id, confirmed: p.confirmed }).then(
      () => pendingLines.remove(p.clientKey),
      (err: unknown) => {
        // Issue 30: "Are you sure?" first: the line goes back into the composer until the sender decides.
        const outcome = guardOutcome(err, p.body);
        if (outcome?.kind === 'confirm') {
          pendingLines.remove(p.clientKey);
          if (!draftRef.current) setDraft(p.body);
          guard.setOutcome(outcome);
          return;
        }
        const message = err instanceof ApiError && err.status > 0 ? err.message : 'Not sent.';
        pendingLines.update(p.clientKey, { status: 'failed', error: message });
        if (err instanceof ApiError && err.status === 409) void qc.invalidateQueries({ queryKey: messageKeys.conversation(id) });
      },
    );
  };

  const onSend = (confirmed = false) => {
    if (editing) {
      const parsed = checkMessageBody(editText, DM_MAX_LENGTH, DM_MESSAGES);
      if (!parsed.ok) return;
      actions.edit.mutate(
        { messageId: editing.id, body: parsed.body },
        { onError: (err) => toast({ variant: 'destructive', title: 'Message not edited', description: err.message }) },
      );
      setEditing(null);
      return;
    }
    const parsed = checkMessageBody(draft, DM_MAX_LENGTH, DM_MESSAGES);
    if (!parsed.ok) {
      toast({ variant: 'destructive', title: 'Message not sent', description: parsed.message });
      return;
    }
    const p: PendingLine = {
      clientKey: newClientKey(),
      body: parsed.body,
      createdAt: new Date().toISOString(),
      status: 'sending',
      replyTo: replyTo
        ? {
            id: replyTo.id,
            senderName: replyTo.senderId === myId ? 'You' : name,
            body: snippetOf(replyTo.body),
            senderId: replyTo.senderId,
            flag: replyTo.flag ?? null,
          }
        : null,
      confirmed,
    };
    guard.clear();
    pendingLines.add(p);
    setDraft('');
    setReplyTo(null);
    deliver(p);
  };

  const retry = (p: PendingLine) => deliver(p);

  const jumpTo = useJumpToLine(scroller, {
    hasMore: () => windowRef.current.more,
    load: async () => {
      const el = scroller.current;
      if (el) restore.current = { height: el.scrollHeight, top: el.scrollTop };
      await windowRef.current.older({ all: true });
    },
  });

  const handlers: LineHandlers = {
    reply: (m) => {
      setEditing(null);
      setReplyTo(m);
      composer.current?.focus();
    },
    edit: (m) => {
      setReplyTo(null);
      setEditing(m);
      setEditText(m.body);
      composer.current?.focus();
    },
    unsend: (m) =>
      actions.unsend.mutate(m.id, {
        onError: (err) => toast({ variant: 'destructive', title: 'Message not unsent', description: err.message }),
      }),
    react: (m, emoji) =>
      actions.react.mutate(
        { messageId: m.id, emoji, me: { id: myId ?? '', firstName: 'You' } },
        { onError: (err) => toast({ variant: 'destructive', title: 'Reaction not saved', description: err.message }) },
      ),
    jump: (target) => {
      void jumpTo(target).then((found) => {
        if (!found) toast({ title: 'Original message unavailable' });
      });
    },
    // The safety entries of the other member's message (issue 30): hide it for me, or report it.
    extra: (m) =>
      m.senderId === myId || m.unsentAt
        ? (lineActions?.(m) ?? [])
        : [
            { key: 'hide', label: 'Hide this line', icon: EyeOff, onSelect: () => hideLine(m.id) },
            {
              key: 'report',
              label: 'Report',
              icon: Flag,
              destructive: true,
              onSelect: () => reportLine({ id: m.id, body: m.body, author: { id: m.senderId, firstName: name } }),
            },
            ...(lineActions?.(m) ?? []),
          ],
  };

  const jump = () => {
    scroller.current?.scrollTo({ top: scroller.current.scrollHeight, behavior: 'smooth' });
    setShowJump(false);
  };

  const matchedOn = new Date(conversation.createdAt).toLocaleDateString('en-GB', { timeZone: DEFAULT_TZ, day: 'numeric', month: 'long' });
  const suggestions = [
    `Hey ${name}! So glad we matched.`,
    conversation.mixer ? `Loved chatting at ${conversation.mixer.title}!` : 'What made you fancy me back?',
    'What does your perfect weekend look like?',
  ];
  const intro = (
    <div className="flex flex-col items-center px-4 pb-4 pt-6 text-center">
      <Avatar name={name} src={conversation.other.avatarUrl} className="size-20 text-2xl" />
      <p className="mt-3 text-balance font-display text-lg font-bold">
        {conversation.canSend ? (
          <>
            You and {name} fancy each other <Heart className="inline-block size-4 -translate-y-px fill-primary text-primary" aria-hidden />
          </>
        ) : (
          `You matched with ${name}`
        )}
      </p>
      <p className="mt-1 text-sm text-muted-foreground">
        {conversation.mixer ? `You met at ${conversation.mixer.title} · ` : ''}Matched {matchedOn}
      </p>
      {messagesQ.data && messages.length === 0 && conversation.canSend && (
        <div className="mt-5 grid w-full max-w-sm gap-2">
          <p className="text-sm text-muted-foreground">Not sure how to start? Tap one to make it yours:</p>
          {suggestions.map((s) => (
            <button
              key={s}
              type="button"
              onClick={() => {
                setDraft(s);
                composer.current?.focus();
              }}
              className="rounded-2xl border border-border bg-card px-4 py-2.5 text-left text-sm hover:border-primary hover:bg-accent"
            >
              {s}
            </button>
          ))}
        </div>
      )}
    </div>
  );

  return (
    <Frame labelledBy="thread-title">
      <ThreadHeader conversation={conversation} />
      {messagesQ.isPending ? (
        <div className="flex flex-1 items-center justify-center">
          <Spinner label="Loading messages" />
        </div>
      ) : messagesQ.isError && !messagesQ.data ? (
        <div className="flex flex-1 items-center justify-center">
          <ErrorState message="We couldn't load the messages." onRetry={() => void messagesQ.refetch()} />
        </div>
      ) : (
        // "Does this bother you?" opens the same report dialog, pre-filled (issue 30).
        <LineReportContext.Provider
          value={(line) => reportLine({ id: line.id, body: line.body, author: line.sender }, 'Harassment or bullying')}
        >
          <MessageList
            ref={scroller}
            messages={shown}
            pending={pending}
            myId={myId}
            otherName={name}
            now={now}
            firstUnreadId={firstUnread.current ?? null}
            hasOlder={lineWindow.more}
            loadingOlder={messagesQ.isFetchingNextPage}
            onLoadOlder={loadOlder}
            onRetry={retry}
            handlers={handlers}
            canWrite={conversation.canSend}
            onScroll={onScroll}
            intro={intro}
            showJump={showJump}
            onJump={jump}
            privacy={privacy}
            onUnhide={unhide}
          />
        </LineReportContext.Provider>
      )}
      <LiveAnnouncer text={announcement} />
      {conversation.canSend && (
        <TypingIndicator room={`conversation:${id}`} me={myId ?? ''} nameOf={(u) => (u === conversation.other.id ? name : undefined)} />
      )}
      {reportDialog}
      {conversation.canSend ? (
        <>
          <Composer
            ref={composer}
            value={editing ? editText : draft}
            onChange={
              editing
                ? setEditText
                : (v) => {
                    setDraft(v);
                    if (v.trim()) typing.keystroke();
                    else typing.stop();
                  }
            }
            onSend={() => {
              typing.stop();
              onSend();
            }}
            name={name}
            banner={
              editing
                ? { mode: 'edit', body: snippetOf(editing.body) }
                : replyTo
                  ? { mode: 'reply', name: replyTo.senderId === myId ? 'yourself' : name, body: snippetOf(replyTo.body) }
                  : undefined
            }
            onCancelBanner={() => {
              setEditing(null);
              setReplyTo(null);
            }}
          />
          <AreYouSureDialog
            outcome={guard.outcome}
            onEdit={() => {
              guard.clear();
              composer.current?.focus();
            }}
            onSendAnyway={() => onSend(true)}
          />
        </>
      ) : (
        <div
          role="status"
          className="flex shrink-0 items-start justify-center gap-2.5 border-t border-border bg-muted/70 px-5 pb-[max(1rem,env(safe-area-inset-bottom))] pt-4 text-sm"
        >
          <Lock className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
          <p className="max-w-md">
            <span className="font-semibold">Read-only. </span>
            {conversation.blockedByMe
              ? `You blocked ${name}. They can no longer see this conversation; you can still read it and report from it.`
              : conversation.status === 'unmatched'
                ? `You unmatched. ${name} can no longer see this conversation; you can still read it.`
                : 'This conversation has ended. You can still read it, but no new messages can be sent.'}
          </p>
        </div>
      )}
    </Frame>
  );
}
