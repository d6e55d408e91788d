import { DEFAULT_TZ } from '../../../shared/constants';
import { useQueryClient } from '@tanstack/react-query';
import { Heart, Lock } from 'lucide-react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link, type LoaderFunctionArgs, useParams } from 'react-router';
import { preloadQueries } from '../../lib/query';
import { type ConversationDetail, DM_MESSAGES, sendMessageSchema } from '../../../shared/schemas/messages';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api';
import { useRealtimeEvents } from '../../lib/realtime';
import { useReportLine } from '../chat';
import { useAuth } from '../auth';
import { Avatar } from '../../components/ui/avatar';
import {
  conversationQuery,
  markReadInCache,
  messageKeys,
  messagesQuery,
  upsertMessage,
  useConversation,
  useMarkRead,
  useMessages,
  useSendMessage,
} from './api';
import { Composer } from './components/composer';
import { MessageList, type PendingMessage } from './components/message-list';
import { ErrorState } from './components/states';
import { BackToMessages, ThreadHeader } from './components/thread-header';
import { useNow, usePageVisible } from './hooks';
import { usePageTitle } from '../../lib/use-page-title';

let tempCounter = 0;

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
        <div className="flex h-16 items-center border-b border-border px-2 md:hidden">
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

function LoadedThread({ conversation }: { conversation: ConversationDetail }) {
  const id = conversation.id;
  const name = conversation.other.firstName;
  usePageTitle(`${name} · Messages`);
  const auth = useAuth();
  const myId = auth.user?.id;
  const qc = useQueryClient();
  const toast = useToast();
  const messagesQ = useMessages(id);
  const send = useSendMessage(id);
  const { mutateAsync: markReadAsync } = useMarkRead(id);
  const visible = usePageVisible();
  const now = useNow();
  const [draft, setDraft] = useState('');
  const [pending, setPending] = useState<PendingMessage[]>([]);
  const [showJump, setShowJump] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const composer = useRef<{ focus(): void }>(null);
  const atBottom = useRef(true);
  const restore = useRef<{ height: number; top: number } | null>(null);
  const edges = useRef<{ first?: string; last?: string; pending: number; ready: boolean }>({ pending: 0, ready: false });

  const messages = useMemo(() => (messagesQ.data ? [...messagesQ.data.pages].reverse().flatMap((p) => p.messages) : []), [messagesQ.data]);

  // The first message that was unread when the thread opened gets a "New messages" divider.
  const firstUnread = useRef<string | null | undefined>(undefined);
  if (firstUnread.current === undefined && messagesQ.data) {
    firstUnread.current = messages.find((m) => !m.isRead && m.senderId !== myId)?.id ?? null;
  }

  useRealtimeEvents((event) => {
    if (event.type === 'dm.message' && event.message.matchId === id) {
      const message = event.message;
      if (message.senderId === myId) {
        // Our own message echoed back before the POST answered: it replaces the pending bubble.
        setPending((list) => {
          const i = list.findIndex((p) => p.status === 'sending' && p.body === message.body);
          return i < 0 ? list : list.filter((_, j) => j !== i);
        });
      }
      upsertMessage(qc, message);
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
    const first = messages[0]?.id;
    const last = messages[messages.length - 1]?.id;
    const prev = edges.current;
    if (!prev.ready) {
      el.scrollTop = el.scrollHeight;
      const divider = el.querySelector<HTMLElement>('[data-new-divider]');
      if (divider && divider.offsetTop < el.scrollTop) el.scrollTop = divider.offsetTop - 12;
    } else if (restore.current && first !== prev.first) {
      el.scrollTop = el.scrollHeight - restore.current.height + restore.current.top;
      restore.current = null;
    } else if (last !== prev.last || pending.length > prev.pending) {
      const mine = pending.length > prev.pending || messages[messages.length - 1]?.senderId === myId;
      if (mine || atBottom.current) el.scrollTo({ top: el.scrollHeight, behavior: prev.ready ? 'smooth' : 'auto' });
      else setShowJump(true);
    }
    edges.current = { first, last, pending: pending.length, ready: true };
  }, [messages, pending, messagesQ.data, myId]);

  // Keep the latest message in view when the pane shrinks (phone keyboard, composer → read-only notice).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the scroller only exists once the first page has loaded
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let height = el.clientHeight;
    const observer = new ResizeObserver(() => {
      if (el.clientHeight !== height && atBottom.current) el.scrollTop = el.scrollHeight;
      height = el.clientHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [messagesQ.isPending]);

  const loadOlder = () => {
    const el = scroller.current;
    if (!el || !messagesQ.hasNextPage || messagesQ.isFetchingNextPage) return;
    restore.current = { height: el.scrollHeight, top: el.scrollTop };
    void messagesQ.fetchNextPage().then((r) => {
      if (r.isError) restore.current = null;
    });
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (atBottom.current) setShowJump(false);
    if (el.scrollTop < 120 && edges.current.ready && !restore.current) loadOlder();
  };

  const deliver = (p: PendingMessage) => {
    send.mutateAsync(p.body).then(
      () => setPending((list) => list.filter((x) => x.tempId !== p.tempId)),
      (err: unknown) => {
        const message = err instanceof ApiError ? err.message : 'Not sent.';
        setPending((list) => list.map((x) => (x.tempId === p.tempId ? { ...x, status: 'failed', error: message } : x)));
        if (err instanceof ApiError && err.status === 409) void qc.invalidateQueries({ queryKey: messageKeys.conversation(id) });
      },
    );
  };

  const onSend = () => {
    const parsed = sendMessageSchema.safeParse({ body: draft });
    if (!parsed.success) {
      toast({ variant: 'destructive', title: 'Message not sent', description: parsed.error.issues[0]?.message ?? DM_MESSAGES.empty });
      return;
    }
    const p: PendingMessage = {
      tempId: `tmp-${Date.now()}-${++tempCounter}`,
      body: parsed.data.body,
      createdAt: new Date().toISOString(),
      status: 'sending',
    };
    setPending((list) => [...list, p]);
    setDraft('');
    deliver(p);
  };

  const retry = (p: PendingMessage) => {
    const again = { ...p, status: 'sending' as const, error: undefined };
    setPending((list) => list.map((x) => (x.tempId === p.tempId ? again : x)));
    deliver(again);
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
        <MessageList
          ref={scroller}
          messages={messages}
          pending={pending}
          myId={myId}
          otherName={name}
          now={now}
          firstUnreadId={firstUnread.current ?? null}
          hasOlder={Boolean(messagesQ.hasNextPage)}
          loadingOlder={messagesQ.isFetchingNextPage}
          onLoadOlder={loadOlder}
          onRetry={retry}
          onScroll={onScroll}
          onReport={(m) => reportLine({ id: m.id, body: m.body, author: { id: m.senderId, firstName: name } })}
          intro={intro}
          showJump={showJump}
          onJump={jump}
        />
      )}
      {reportDialog}
      {conversation.canSend ? (
        <Composer ref={composer} value={draft} onChange={setDraft} onSend={onSend} name={name} />
      ) : (
        <div
          role="status"
          className="flex shrink-0 items-start justify-center gap-2.5 border-t border-border bg-muted/70 px-5 pb-[max(1rem,env(safe-area-inset-bottom))] pt-4 text-sm"
        >
          <Lock className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
          <p className="max-w-md">
            <span className="font-semibold">Read-only. </span>
            {conversation.blockedByMe
              ? `You blocked ${name}, so neither of you can send messages here.`
              : 'This conversation has ended. You can still read it, but no new messages can be sent.'}
          </p>
        </div>
      )}
    </Frame>
  );
}
