import { useQueryClient } from '@tanstack/react-query';
import { ArrowDown, EyeOff, Flag, LoaderCircle, Lock, SendHorizontal, Sparkles } from 'lucide-react';
import { Fragment, memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ChatMessage } from '../../../../shared/realtime/events';
import { CHAT_MESSAGE_MAX, chatMessageInputSchema, type MixerDetail } from '../../../../shared/schemas/mixers';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { cn } from '../../../lib/cn';
import { Avatar } from '../../../components/ui/avatar';
import { appendChatMessage, type ChatData, mixerKeys, moderateChatLine, useChatHistory, useSendMessage } from '../api';
import { dayLabel, formatTime } from '../format';
import { themeOf } from '../themes';
import { useMixerRoom } from '../use-connection';
import { LoadError } from '../../../components/ui/load-error';
import { useGrowingTextarea } from '../../../components/ui/use-growing-textarea';
import { type ReportableLine, useReportLine } from '../../chat';

const NEAR_BOTTOM_PX = 80;
const GROUP_GAP_MS = 5 * 60_000;

/** The live group chat of a mixer: history (older on scroll), realtime delivery, composer. */
export function ChatPanel({ mixer, me, className }: { mixer: MixerDetail; me: string; className?: string }) {
  const qc = useQueryClient();
  const history = useChatHistory(mixer.id, true);
  const theme = themeOf(mixer.theme);
  const writable = mixer.status === 'live';

  const connected = useMixerRoom(`mixer:${mixer.id}`, (event) => {
    if (event.type === 'mixer.message' && event.message.mixerId === mixer.id) {
      qc.setQueryData<ChatData>(mixerKeys.chat(mixer.id), (d) => appendChatMessage(d, event.message));
    }
    if (event.type === 'mixer.updated' && event.mixerId === mixer.id) {
      void qc.invalidateQueries({ queryKey: mixerKeys.detail(mixer.id) });
    }
    // Moderation of a line (issue 30): hidden while we check, removed, or visible again (refetched for its words).
    if (event.type === 'mixer.line' && event.mixerId === mixer.id) {
      const { state, messageId } = event;
      if (state === 'visible') void qc.invalidateQueries({ queryKey: mixerKeys.chat(mixer.id) });
      else qc.setQueryData<ChatData>(mixerKeys.chat(mixer.id), (d) => moderateChatLine(d, messageId, state));
    }
  });
  const { reportLine, dialog: reportDialog } = useReportLine({ kind: 'mixer', id: mixer.id });
  const onReport = useCallback((line: ReportableLine) => reportLine(line), [reportLine]);

  const messages = useMemo(() => (history.data ? [...history.data.pages].reverse().flatMap((p) => p.items) : []), [history.data]);

  // Scrolling: stick to the bottom when already there; otherwise count what arrived below.
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const previous = useRef<{ first?: string; last?: string; height: number; top: number }>({ height: 0, top: 0 });
  const [unseen, setUnseen] = useState(0);
  const ownSend = useRef(false);

  const scrollToBottom = useCallback((smooth = false) => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTo({ top: el.scrollHeight, behavior: smooth ? 'smooth' : 'auto' });
    atBottom.current = true;
    setUnseen(0);
  }, []);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const first = messages[0]?.id;
    const last = messages.at(-1)?.id;
    const prev = previous.current;
    if (!prev.last && last) {
      el.scrollTop = el.scrollHeight; // first paint: newest at the bottom
    } else if (last !== prev.last) {
      const added = messages.length - messages.findIndex((m) => m.id === prev.last) - 1;
      if (atBottom.current || ownSend.current) scrollToBottom();
      else setUnseen((n) => n + Math.max(1, added));
      ownSend.current = false;
    } else if (first !== prev.first) {
      el.scrollTop = prev.top + (el.scrollHeight - prev.height); // older page above: keep my place
    }
    previous.current = { first, last, height: el.scrollHeight, top: el.scrollTop };
  }, [messages, scrollToBottom]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
    if (atBottom.current && unseen) setUnseen(0);
    previous.current = { ...previous.current, height: el.scrollHeight, top: el.scrollTop };
  };

  // Older pages load when the top comes into view (and from a button, for keyboards).
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;
  useEffect(() => {
    const el = sentinel.current;
    const root = scroller.current;
    if (!el || !root || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { root, rootMargin: '200px 0px 0px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <section
      aria-labelledby="chat-heading"
      className={cn('relative flex min-h-0 flex-col overflow-hidden rounded-2xl border border-border bg-card shadow-sm', className)}
    >
      <header className="flex items-center justify-between gap-3 border-b border-border px-4 py-3">
        <h2 id="chat-heading" className="font-semibold">
          Group chat
        </h2>
        <span className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground" role="status">
          {!writable ? (
            <>
              <Lock className="size-3.5" aria-hidden /> Read-only
            </>
          ) : connected ? (
            <>
              <span className="size-2 rounded-full bg-success" aria-hidden /> Live
            </>
          ) : (
            <>
              <LoaderCircle className="size-3.5 animate-spin" aria-hidden /> Connecting…
            </>
          )}
        </span>
      </header>

      <div
        ref={scroller}
        onScroll={onScroll}
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        aria-label={`Messages in ${mixer.title}`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard to scroll it (WCAG 2.1.1)
        tabIndex={0}
        className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-3 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring sm:px-4"
      >
        {history.isPending ? (
          <div className="flex h-full items-center justify-center">
            <Spinner label="Loading messages" />
          </div>
        ) : history.isError && !messages.length ? (
          <LoadError
            bare
            title="We couldn't load the chat."
            error={history.error}
            onRetry={history.refetch}
            className="h-full items-center justify-center text-center"
          />
        ) : (
          <>
            <div ref={sentinel} />
            {hasNextPage ? (
              <div className="mb-3 flex justify-center">
                <Button variant="ghost" size="sm" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
                  {isFetchingNextPage ? 'Loading earlier messages…' : 'Load earlier messages'}
                </Button>
              </div>
            ) : (
              messages.length > 0 && <p className="mb-3 text-center text-xs text-muted-foreground">This is the start of the chat.</p>
            )}
            {messages.length === 0 && (
              <p className="mt-8 text-center text-sm text-muted-foreground">
                {/* Before the start the footer says when it opens; saying it twice in one card reads as a glitch. */}
                {mixer.status === 'scheduled' ? 'No messages yet.' : 'No messages yet. Say hello!'}
              </p>
            )}
            <ol className="flex flex-col">
              {messages.map((m, i) => (
                <MessageItem
                  key={m.id}
                  message={m}
                  prev={messages[i - 1]}
                  next={messages[i + 1]}
                  me={me}
                  soft={theme.soft}
                  onReport={onReport}
                />
              ))}
            </ol>
          </>
        )}
      </div>

      {unseen > 0 && (
        <button
          type="button"
          onClick={() => scrollToBottom(true)}
          className="absolute bottom-24 left-1/2 z-10 inline-flex -translate-x-1/2 items-center gap-1.5 rounded-full bg-primary px-4 py-2 text-sm font-semibold text-primary-foreground shadow-lg"
        >
          <ArrowDown className="size-4" aria-hidden />
          {unseen === 1 ? '1 new message' : `${unseen} new messages`}
        </button>
      )}

      {writable ? (
        <ChatComposer
          mixerId={mixer.id}
          onSending={(sending) => {
            ownSend.current = sending;
          }}
        />
      ) : (
        <p className="flex items-center justify-center gap-2 border-t border-border bg-muted/60 px-4 py-3 text-center text-sm text-muted-foreground">
          <Lock className="size-4 shrink-0" aria-hidden />
          {mixer.status === 'scheduled' ? 'The chat opens when the mixer starts.' : 'This mixer has ended. The chat is read-only now.'}
        </p>
      )}
      {reportDialog}
    </section>
  );
}

/**
 * The message box, with its own state: typing re-renders the composer only, not the panel and
 * its 200 lines (issue 19: INP while typing in a live chat on a slow phone).
 */
function ChatComposer({ mixerId, onSending }: { mixerId: string; onSending: (sending: boolean) => void }) {
  const toast = useToast();
  const send = useSendMessage(mixerId);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const input = useRef<HTMLTextAreaElement>(null);
  const tooLong = text.length > CHAT_MESSAGE_MAX;

  const submit = () => {
    if (send.isPending) return;
    const parsed = chatMessageInputSchema.safeParse({ body: text });
    if (!parsed.success) {
      if (text.trim()) setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    onSending(true);
    // Cleared at once, like any messenger; put back if sending fails.
    const draft = text;
    setText('');
    send.mutate(parsed.data.body, {
      onSuccess: () => requestAnimationFrame(() => input.current?.focus()),
      onError: (err) => {
        onSending(false);
        setText((current) => current || draft);
        toast({ title: 'Message not sent', description: err.message, variant: 'destructive' });
      },
    });
  };

  useGrowingTextarea(input, text);

  return (
    <form
      className="border-t border-border bg-card p-2.5 sm:p-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="flex items-end gap-2">
        <label htmlFor="chat-input" className="sr-only">
          Message
        </label>
        <textarea
          id="chat-input"
          ref={input}
          rows={1}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError(undefined);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
          placeholder="Write a message…"
          aria-describedby="chat-help"
          aria-invalid={tooLong || Boolean(error)}
          className="max-h-40 min-h-11 flex-1 resize-none [field-sizing:content] rounded-2xl border border-input bg-background px-4 py-2.5 text-base leading-6 placeholder:text-muted-foreground/80 focus-visible:outline-2 focus-visible:outline-ring aria-[invalid=true]:border-destructive md:text-sm"
        />
        <Button
          type="submit"
          size="icon"
          aria-label="Send message"
          disabled={!text.trim() || tooLong || send.isPending}
          className="size-11"
        >
          <SendHorizontal aria-hidden />
        </Button>
      </div>
      <div id="chat-help" className="mt-1 flex justify-between gap-2 px-2 text-xs text-muted-foreground">
        <span className={cn(error && 'font-medium text-destructive')} role={error ? 'alert' : undefined}>
          {error ?? (
            <>
              <span className="hidden sm:inline">Enter to send · Shift+Enter for a new line</span>
              <span className="sm:hidden">Be kind — everyone here is new too</span>
            </>
          )}
        </span>
        {text.length > CHAT_MESSAGE_MAX - 100 && (
          <span className={cn('tabular-nums', tooLong && 'font-semibold text-destructive')}>
            {text.length}/{CHAT_MESSAGE_MAX}
          </span>
        )}
      </div>
    </form>
  );
}

function sameGroup(a: ChatMessage | undefined, b: ChatMessage | undefined) {
  return Boolean(
    a &&
      b &&
      a.kind === 'member' &&
      b.kind === 'member' &&
      a.sender?.id === b.sender?.id &&
      Math.abs(new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime()) < GROUP_GAP_MS,
  );
}

/**
 * One line of the chat. Memoised: typing into the composer re-renders the panel on every key,
 * and with 200 lines on screen re-rendering them all made each key cost ~200 ms on a slow phone
 * (issue 19). Its props are the query's own message objects and strings, stable between keys.
 */
const MessageItem = memo(function MessageItem({
  message,
  prev,
  next,
  me,
  soft,
  onReport,
}: {
  message: ChatMessage;
  prev?: ChatMessage;
  next?: ChatMessage;
  me: string;
  soft: string;
  onReport?: (line: ReportableLine) => void;
}) {
  const newDay = !prev || dayLabel(prev.createdAt) !== dayLabel(message.createdAt);
  const separator = newDay && (
    <li className="my-3 flex justify-center" aria-hidden>
      <span className="rounded-full bg-muted px-3 py-1 text-xs font-medium text-muted-foreground">{dayLabel(message.createdAt)}</span>
    </li>
  );
  const time = formatTime(message.createdAt);

  if (message.kind === 'icebreaker') {
    return (
      <>
        {separator}
        <li className={cn('mx-auto my-3 w-full max-w-md rounded-2xl border px-4 py-3 text-center', soft)}>
          <p className="flex items-center justify-center gap-1.5 text-xs font-bold uppercase tracking-wider">
            <Sparkles className="size-3.5" aria-hidden /> Icebreaker
          </p>
          <p className="mt-1 font-medium">{message.body}</p>
        </li>
      </>
    );
  }
  if (message.kind === 'system' || !message.sender) {
    return (
      <>
        {separator}
        <li className="my-3 text-center text-xs text-muted-foreground">
          <span className="inline-block max-w-md rounded-xl bg-muted px-3 py-1.5">{message.body}</span>
        </li>
      </>
    );
  }

  const mine = message.sender.id === me;
  const startsGroup = newDay || !sameGroup(prev, message);
  const endsGroup = !sameGroup(message, next);
  return (
    <Fragment>
      {separator}
      <li className={cn('flex items-end gap-2', mine ? 'justify-end' : 'justify-start', startsGroup ? 'mt-3' : 'mt-0.5')}>
        {!mine && (
          <span className="w-8 shrink-0">
            {endsGroup && <Avatar name={message.sender.firstName} src={message.sender.avatarUrl} className="size-8" />}
          </span>
        )}
        <div className={cn('flex max-w-[78%] flex-col sm:max-w-[70%]', mine ? 'items-end' : 'items-start')}>
          {!mine && startsGroup && (
            <span className="mb-0.5 ml-3 text-xs font-semibold text-muted-foreground">{message.sender.firstName}</span>
          )}
          <p
            className={cn(
              'whitespace-pre-wrap break-words rounded-2xl px-3.5 py-2 text-[15px] leading-snug [overflow-wrap:anywhere]',
              mine ? 'rounded-br-md bg-primary text-primary-foreground' : 'rounded-bl-md bg-muted text-foreground',
            )}
          >
            <span className="sr-only">
              {mine ? 'You' : message.sender.firstName} at {time}:{' '}
            </span>
            {message.hidden ? (
              <span className="inline-flex items-center gap-1.5 italic text-muted-foreground">
                <EyeOff className="size-3.5" aria-hidden /> Hidden while we check
              </span>
            ) : (
              message.body
            )}
          </p>
          {/* Temporary entry until the shared line menu (issue 30): report another member's line. */}
          {!mine && !message.hidden && onReport && (
            <button
              type="button"
              onClick={() =>
                onReport({
                  id: message.id,
                  body: message.body,
                  author: { id: message.sender?.id ?? '', firstName: message.sender?.firstName ?? 'Member' },
                })
              }
              className="ml-2 mt-0.5 inline-flex items-center gap-1 rounded-full px-1.5 py-0.5 text-[11px] text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
              aria-label={`Report ${message.sender.firstName}'s message`}
            >
              <Flag className="size-3" aria-hidden /> Report
            </button>
          )}
          {endsGroup && (
            <time
              dateTime={message.createdAt}
              className={cn('mt-0.5 text-[11px] text-muted-foreground', mine ? 'mr-2' : 'ml-3')}
              aria-hidden
            >
              {time}
            </time>
          )}
        </div>
      </li>
    </Fragment>
  );
});
