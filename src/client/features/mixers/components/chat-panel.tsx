import { useQueryClient } from '@tanstack/react-query';
import { ArrowDown, EyeOff, Flag, LoaderCircle, Lock, SendHorizontal, Sparkles, Volume2, VolumeX } from 'lucide-react';
import { Fragment, memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ChatMessage } from '../../../../shared/realtime/events';
import { myReaction, newClientKey, snippetOf, withinEditWindow } from '../../../../shared/chat-lines';
import { LINE_MESSAGES } from '../../../../shared/chat-lines';
import { checkMessageBody } from '../../../../shared/member-text';
import { CHAT_BODY_MESSAGES, CHAT_MESSAGE_MAX, CHAT_PAGE_SIZE, type MixerDetail } from '../../../../shared/mixer-facts';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { cn } from '../../../lib/cn';
import { Avatar } from '../../../components/ui/avatar';
import { appendChatMessage, type ChatData, mixerKeys, moderateChatLine, useChatHistory, useLineActions, useSendMessage } from '../api';
import {
  applyLineChange,
  applyLineReaction,
  ComposerBanner,
  type LineAction,
  LineActions,
  LiveAnnouncer,
  type PendingLine,
  PendingStatus,
  ReactionChips,
  ReplyQuote,
  SkipToComposer,
  useDraft,
  useJumpToLine,
  useLineWindow,
  usePendingLines,
} from '../../chat';
import { ApiError } from '../../../lib/api';
import { dayLabel, formatTime } from '../format';
import { themeOf } from '../themes';
import { useMixerRoom } from '../use-connection';
import { LoadError } from '../../../components/ui/load-error';
import { useGrowingTextarea } from '../../../components/ui/use-growing-textarea';
import { HostLine, HostNudge } from '../../host';
import { splitMentions } from '../../../../shared/mentions';
import {
  type Mentionable,
  MentionText,
  NewMessagesDivider,
  PresenceCount,
  TypingIndicator,
  useComposerOnScreen,
  useKeyboardSafe,
  useLiveRoomEvents,
  useMarkRead,
  usePinnedToBottom,
  useMentionPicker,
  useReadState,
  useTypingSender,
} from '../../chat';
import { useHiddenWordMatcher } from '../../../components/safety/hidden-words';
import { LineNotice } from '../../../components/safety/line-notice';
import { AreYouSureDialog, type GuardOutcome, guardOutcome, HeldNotice, useSendGuard } from '../../../components/safety/send-guard';
import {
  announcementOf,
  CollapsedLine,
  type CollapsedReason,
  collapsedReason,
  NO_PRIVACY,
  quoteFolded,
  useHideLine,
  useLinePrivacy,
  useMuteMember,
  useReportLine,
} from '../../chat';
import { LineReportContext, type ReportableLine as NoticeLine } from '../../../components/safety/line-notice';

const NEAR_BOTTOM_PX = 80;
const GROUP_GAP_MS = 5 * 60_000;

/**
 * The live group chat of a mixer: history (older on scroll), realtime delivery, replies,
 * reactions, edit and unsend from each line's menu, and a composer whose lines never double or
 * vanish. `lineActions` adds entries to a line's menu (e.g. the safety actions).
 */
export function ChatPanel({
  mixer,
  me,
  className,
  lineActions,
}: {
  mixer: MixerDetail;
  me: string;
  className?: string;
  lineActions?: (message: ChatMessage) => LineAction[];
}) {
  const qc = useQueryClient();
  const history = useChatHistory(mixer.id, true);
  const theme = themeOf(mixer.theme);
  const writable = mixer.status === 'live';
  const toast = useToast();
  const lines = useLineActions(mixer.id);
  const send = useSendMessage(mixer.id);
  const pending = usePendingLines(`mixer:${mixer.id}`);
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  const [editing, setEditing] = useState<ChatMessage | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const composerInput = useRef<HTMLTextAreaElement>(null);
  const room = `mixer:${mixer.id}`;
  useLiveRoomEvents(room);
  const readState = useReadState(mixer.id);
  // The people I may see (the server leaves out anyone hidden from me): names for typing, mentions and highlights.
  const people = useMemo(() => new Map(mixer.participants.map((p) => [p.id, p])), [mixer.participants]);
  const mentionable = useMemo<Mentionable[]>(
    () => mixer.participants.filter((p) => !p.isYou).map((p) => ({ id: p.id, firstName: p.firstName, avatarUrl: p.avatarUrl })),
    [mixer.participants],
  );
  const hides = useHiddenWordMatcher();
  // Lines I hid and members I muted here collapse, for me only (issue 30).
  const privacy = useLinePrivacy({ mixerId: mixer.id });
  const { show: unhide } = useHideLine({ mixerId: mixer.id });

  const connected = useMixerRoom(`mixer:${mixer.id}`, (event) => {
    if (event.type === 'mixer.message' && event.message.mixerId === mixer.id) {
      qc.setQueryData<ChatData>(mixerKeys.chat(mixer.id), (d) => appendChatMessage(d, event.message));
      const from = event.message.sender;
      // A line the screen shows collapsed is announced without its words (issue 29).
      if (from?.id !== me) setAnnouncement(announcementOf(event.message, from ? from.firstName : 'Fancy', me, privacy, hides));
    }
    if (event.type === 'mixer.line.changed' && event.mixerId === mixer.id) lines.patch((m) => applyLineChange(m, event));
    if (event.type === 'mixer.reaction' && event.mixerId === mixer.id) {
      lines.patch((m) => applyLineReaction(m, event.messageId, event.user, event.emoji));
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

  const messages = useMemo(() => (history.data ? [...history.data.pages].reverse().flatMap((p) => p.items) : []), [history.data]);
  // A pending line whose first copy already arrived (over the room) is shown once, as sent.
  const sentKeys = useMemo(() => new Set(messages.map((m) => m.clientKey).filter(Boolean)), [messages]);
  const waiting = pending.lines.filter((p) => !sentKeys.has(p.clientKey));

  /** Sends a pending line; resolves with what the composer must say when the server held it (issue 30). */
  const deliver = (line: PendingLine): Promise<GuardOutcome> => {
    ownSend.current = true;
    pending.update(line.clientKey, { status: 'sending', error: undefined });
    // A promise per line: mutate()'s callbacks would only follow the latest of several quick sends.
    return send
      .mutateAsync({
        body: line.body,
        clientKey: line.clientKey,
        replyToId: line.replyTo?.id,
        mentions: line.mentions,
        confirmed: line.confirmed,
      })
      .then(
        () => {
          pending.remove(line.clientKey);
          return null;
        },
        (err: unknown) => {
          ownSend.current = false;
          const outcome = guardOutcome(err, line.body);
          if (outcome) {
            // Held, "Are you sure?" or slow mode: the text goes back to the composer, no pending line.
            pending.remove(line.clientKey);
            return outcome;
          }
          pending.update(line.clientKey, {
            status: 'failed',
            error: err instanceof ApiError && err.status > 0 ? err.message : 'Not sent.',
          });
          return null;
        },
      );
  };

  const submit = (body: string, mentions: string[], confirmed: boolean): Promise<GuardOutcome> => {
    if (editing) {
      const target = editing;
      lines.edit.mutate(
        { messageId: target.id, body },
        { onError: (err) => toast({ title: 'Message not edited', description: err.message, variant: 'destructive' }) },
      );
      setEditing(null);
      return Promise.resolve(null);
    }
    const line: PendingLine = {
      clientKey: newClientKey(),
      body,
      createdAt: new Date().toISOString(),
      status: 'sending',
      mentions,
      confirmed,
      replyTo: replyTo
        ? {
            id: replyTo.id,
            senderName: replyTo.sender?.firstName ?? 'Fancy',
            body: snippetOf(replyTo.body),
            senderId: replyTo.sender?.id ?? null,
            flag: replyTo.flag ?? null,
          }
        : null,
    };
    pending.add(line);
    setReplyTo(null);
    return deliver(line);
  };

  // The safety entries of another member's line (issue 30): report it (its evidence is kept),
  // hide it or mute its author, for me only.
  const hideLine = useHideLine({ mixerId: mixer.id });
  const muting = useMuteMember(mixer.id);
  const safetyActions = (m: ChatMessage): LineAction[] => {
    const author = m.sender;
    if (!author || author.id === me || m.kind !== 'member' || m.unsentAt || m.hidden) return [];
    const muted = privacy.mutedMemberIds.includes(author.id);
    return [
      { key: 'hide', label: 'Hide this line', icon: EyeOff, onSelect: () => hideLine.hide(m.id) },
      muted
        ? { key: 'mute', label: `Unmute ${author.firstName}`, icon: Volume2, onSelect: () => muting.unmute(author.id, author.firstName) }
        : { key: 'mute', label: `Mute ${author.firstName}`, icon: VolumeX, onSelect: () => muting.mute(author.id, author.firstName) },
      { key: 'report', label: 'Report', icon: Flag, destructive: true, onSelect: () => reportLine({ id: m.id, body: m.body, author }) },
    ];
  };
  // "Does this bother you?" opens the same dialog, pre-filled.
  const reportFromNotice = useCallback(
    (line: NoticeLine) => reportLine({ id: line.id, body: line.body, author: line.sender }, 'Harassment or bullying'),
    [reportLine],
  );

  // Stable handlers for the memoised lines (typing must not re-render 200 of them).
  const handlers = useRef<LineHandlers>(null as unknown as LineHandlers);
  handlers.current = {
    reply: (m) => {
      setEditing(null);
      setReplyTo(m);
      composerInput.current?.focus();
    },
    edit: (m) => {
      setReplyTo(null);
      setEditing(m);
      composerInput.current?.focus();
    },
    unsend: (m) =>
      lines.unsend.mutate(m.id, {
        onError: (err) => toast({ title: 'Message not unsent', description: err.message, variant: 'destructive' }),
      }),
    react: (m, emoji) =>
      lines.react.mutate(
        { messageId: m.id, emoji, me: { id: me, firstName: 'You' } },
        { onError: (err) => toast({ title: 'Reaction not saved', description: err.message, variant: 'destructive' }) },
      ),
    jump: (id) => {
      void jumpTo(id).then((found) => {
        if (!found) toast({ title: 'Original message unavailable' });
      });
    },
    extra: (m) => [...safetyActions(m), ...(lineActions?.(m) ?? [])],
  };
  const stable = useMemo<LineHandlers>(
    () => ({
      reply: (m) => handlers.current.reply(m),
      edit: (m) => handlers.current.edit(m),
      unsend: (m) => handlers.current.unsend(m),
      react: (m, e) => handlers.current.react(m, e),
      jump: (id) => handlers.current.jump(id),
      extra: (m) => handlers.current.extra(m),
    }),
    [],
  );
  const firstUnread = useFirstUnread(messages, readState, me);
  const { isFetchingNextPage } = history;
  const lineWindow = useLineWindow(messages, firstUnread, history, CHAT_PAGE_SIZE);
  const shown = lineWindow.lines;

  // Scrolling: stick to the bottom when already there; otherwise count what arrived below.
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const previous = useRef<{ first?: string; last?: string; height: number; top: number }>({ height: 0, top: 0 });
  const [unseen, setUnseen] = useState(0);
  const [scrolledUp, setScrolledUp] = useState(false);
  const ownSend = useRef(false);
  usePinnedToBottom(scroller, atBottom, history.isPending);
  useMarkRead(mixer.id, messages.at(-1)?.id, !scrolledUp && !history.isPending);

  const scrollToBottom = useCallback((smooth = false) => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTo({ top: el.scrollHeight, behavior: smooth ? 'smooth' : 'auto' });
    atBottom.current = true;
    setUnseen(0);
    setScrolledUp(false);
  }, []);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const first = shown[0]?.id;
    const last = shown.at(-1)?.id;
    const prev = previous.current;
    if (!prev.last && last) {
      if (firstUnread === undefined) return; // read state still loading: wait, so the room opens in the right place
      // First paint: at the first unread line when there is one, else newest at the bottom.
      const divider = firstUnread ? el.querySelector<HTMLElement>('[data-testid="new-messages-divider"]') : null;
      el.scrollTop = divider ? divider.offsetTop - 8 : el.scrollHeight;
      atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
      setScrolledUp(!atBottom.current);
    } else if (last !== prev.last) {
      const added = shown.length - shown.findIndex((m) => m.id === prev.last) - 1;
      if (atBottom.current || ownSend.current) scrollToBottom();
      else setUnseen((n) => n + Math.max(1, added));
      ownSend.current = false;
    } else if (first !== prev.first) {
      el.scrollTop = prev.top + (el.scrollHeight - prev.height); // older page above: keep my place
    }
    previous.current = { first, last, height: el.scrollHeight, top: el.scrollTop };
  }, [shown, scrollToBottom, firstUnread]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
    if (atBottom.current && unseen) setUnseen(0);
    if (scrolledUp === atBottom.current) setScrolledUp(!atBottom.current);
    previous.current = { ...previous.current, height: el.scrollHeight, top: el.scrollTop };
  };

  // Older lines show when the top comes into view (and from a button, for keyboards): first
  // those already loaded, then older pages. Not before the room is in place: it opens at the top
  // until then, which is no reason to load anything.
  const sentinel = useRef<HTMLDivElement>(null);
  const { more, older } = lineWindow;
  const positioned = firstUnread !== undefined;
  const topLine = shown[0]?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: made again once lines show above (topLine), so a sentinel still in view asks for more
  useEffect(() => {
    const el = sentinel.current;
    const root = scroller.current;
    if (!el || !root || !more || !positioned) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) void older();
      },
      { root, rootMargin: '200px 0px 0px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [more, older, positioned, topLine]);

  const windowRef = useRef(lineWindow);
  windowRef.current = lineWindow;
  const jumpTo = useJumpToLine(scroller, {
    hasMore: () => windowRef.current.more,
    load: () => windowRef.current.older({ all: true }),
  });

  return (
    <LineReportContext.Provider value={reportFromNotice}>
      <section
        aria-labelledby="chat-heading"
        className={cn('relative flex min-h-0 flex-col overflow-hidden rounded-2xl border border-border bg-card shadow-sm', className)}
      >
        <header className="flex items-center justify-between gap-3 border-b border-border px-4 py-3">
          <h2 id="chat-heading" className="font-semibold">
            Group chat
          </h2>
          <PresenceCount room={room} visible={(id) => people.has(id)} className="ml-auto" />
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

        {/* The log and the way back to its newest line, which sits at the log's foot whatever the composer's height. */}
        <div className="relative flex min-h-0 flex-1 flex-col">
          {writable && <SkipToComposer composerId="chat-input" />}
          <div
            ref={scroller}
            onScroll={onScroll}
            role="log"
            // New lines are read out by the announcer below, not typing noise or reactions (issue 29).
            aria-live="off"
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
                {more ? (
                  <div className="mb-3 flex justify-center">
                    <Button variant="ghost" size="sm" onClick={() => void older()} disabled={isFetchingNextPage}>
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
                  {shown.map((m, i) => (
                    <Fragment key={m.id}>
                      {m.id === firstUnread && <NewMessagesDivider />}
                      <MessageItem
                        message={m}
                        prev={shown[i - 1]}
                        next={shown[i + 1]}
                        me={me}
                        soft={theme.soft}
                        writable={writable}
                        handlers={stable}
                        people={people}
                        collapsed={collapsedReason(m, me, privacy, hides)}
                        collapsedWhenShown={collapsedReason(m, me, NO_PRIVACY, hides)}
                        quoteFolded={quoteFolded(m.replyTo, me, privacy, hides)}
                        onUnhide={unhide}
                      />
                    </Fragment>
                  ))}
                  {waiting.map((p) => (
                    <li key={p.clientKey} className="mt-1.5 flex flex-col items-end" data-pending-line={p.status}>
                      <div
                        className={cn(
                          'max-w-[78%] whitespace-pre-wrap rounded-2xl rounded-br-md bg-primary px-3.5 py-2 text-[15px] leading-snug text-primary-foreground sm:max-w-[70%]',
                          p.status === 'sending' && 'opacity-70',
                        )}
                      >
                        {p.replyTo && <ReplyQuote quote={p.replyTo} own folded={quoteFolded(p.replyTo, me, privacy, hides)} />}
                        {p.body}
                      </div>
                      <PendingStatus line={p} onRetry={() => void deliver(p)} />
                    </li>
                  ))}
                </ol>
              </>
            )}
          </div>
          {(unseen > 0 || scrolledUp) && (
            <button
              type="button"
              onClick={() => scrollToBottom(true)}
              className="absolute bottom-3 left-1/2 z-10 inline-flex -translate-x-1/2 items-center gap-1.5 whitespace-nowrap rounded-full bg-primary px-4 py-2 text-sm font-semibold text-primary-foreground shadow-lg"
            >
              <ArrowDown className="size-4" aria-hidden />
              {unseen === 0 ? 'Jump to latest' : unseen === 1 ? '1 new message' : `${unseen} new messages`}
            </button>
          )}
        </div>

        {writable && <TypingIndicator room={room} me={me} nameOf={(id) => people.get(id)?.firstName} />}

        <LiveAnnouncer text={announcement} />

        <HostNudge mixerId={mixer.id} live={writable} />
        {writable ? (
          <ChatComposer
            mixerId={mixer.id}
            input={composerInput}
            replyTo={replyTo}
            editing={editing}
            people={mentionable}
            onCancel={() => {
              setReplyTo(null);
              setEditing(null);
            }}
            onSubmit={submit}
          />
        ) : (
          <p className="flex items-center justify-center gap-2 border-t border-border bg-muted/60 px-4 py-3 text-center text-sm text-muted-foreground">
            <Lock className="size-4 shrink-0" aria-hidden />
            {mixer.status === 'scheduled' ? 'The chat opens when the mixer starts.' : 'This mixer has ended. The chat is read-only now.'}
          </p>
        )}
        {reportDialog}
      </section>
    </LineReportContext.Provider>
  );
}

/**
 * The message box, with its own state: typing re-renders the composer only, not the panel and
 * its 200 lines (issue 19: INP while typing in a live chat on a slow phone). The draft is kept
 * per mixer in this browser; while editing, the box holds the line's text instead.
 */
function ChatComposer({
  mixerId,
  input,
  replyTo,
  editing,
  people,
  onCancel,
  onSubmit,
}: {
  mixerId: string;
  input: React.RefObject<HTMLTextAreaElement | null>;
  replyTo: ChatMessage | null;
  editing: ChatMessage | null;
  people: Mentionable[];
  onCancel: () => void;
  onSubmit: (body: string, mentions: string[], confirmed: boolean) => Promise<GuardOutcome>;
}) {
  const [draft, setDraft] = useDraft(`mixer:${mixerId}`);
  const [editText, setEditText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const form = useRef<HTMLFormElement>(null);
  const editingId = editing?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new line to edit starts from its own text
  useEffect(() => {
    if (editing) setEditText(editing.body);
  }, [editingId]);
  const text = editing ? editText : draft;
  const setText = editing ? setEditText : setDraft;
  const guard = useSendGuard();
  const draftRef = useRef(draft);
  draftRef.current = draft;
  const tooLong = text.length > CHAT_MESSAGE_MAX;
  const typing = useTypingSender(`mixer:${mixerId}`);
  const mention = useMentionPicker({ people, text, setText, input });
  useComposerOnScreen();
  useKeyboardSafe(form);

  const submit = (confirmed = false) => {
    const parsed = checkMessageBody(
      text,
      CHAT_MESSAGE_MAX,
      editing ? { ...CHAT_BODY_MESSAGES, empty: LINE_MESSAGES.editEmpty } : CHAT_BODY_MESSAGES,
    );
    if (!parsed.ok) {
      // An empty box sends nothing; an edit emptied says how to take the line back instead.
      if (text.trim() || editing) setError(parsed.message);
      return;
    }
    setError(undefined);
    guard.clear();
    // Cleared at once, like any messenger: the line shows as pending (with Retry if it fails).
    const mentions = editing ? [] : mention.mentionsFor(parsed.body);
    const sent = parsed.body;
    setText('');
    typing.stop();
    mention.reset();
    void onSubmit(sent, mentions, confirmed).then((outcome) => {
      // Held, "Are you sure?" or slow mode (issue 30): said in place, the text back in the box.
      if (!outcome) return;
      if (!draftRef.current) setDraft(sent);
      guard.setOutcome(outcome);
    });
    requestAnimationFrame(() => input.current?.focus());
  };

  useGrowingTextarea(input, text);

  return (
    <form
      ref={form}
      className="relative border-t border-border bg-card p-2.5 sm:p-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {editing ? (
        <ComposerBanner mode="edit" body={snippetOf(editing.body)} onCancel={onCancel} />
      ) : replyTo ? (
        <ComposerBanner mode="reply" name={replyTo.sender?.firstName ?? 'Fancy'} body={snippetOf(replyTo.body)} onCancel={onCancel} />
      ) : null}
      {mention.list}
      <HeldNotice outcome={guard.outcome} />
      <AreYouSureDialog
        outcome={guard.outcome}
        onEdit={() => {
          guard.clear();
          requestAnimationFrame(() => input.current?.focus());
        }}
        onSendAnyway={() => submit(true)}
      />
      <div className="flex items-end gap-2">
        <label htmlFor="chat-input" className="sr-only">
          {editing ? 'Edit message' : replyTo ? `Reply to ${replyTo.sender?.firstName ?? 'Fancy'}` : 'Message'}
        </label>
        <textarea
          id="chat-input"
          data-enter-sends
          ref={input}
          rows={1}
          value={text}
          {...mention.inputProps}
          onChange={(e) => {
            setText(e.target.value);
            mention.track(e.target.value, e.target.selectionStart);
            if (e.target.value.trim()) typing.keystroke();
            else typing.stop();
            if (error) setError(undefined);
            if (guard.outcome?.kind === 'held') guard.clear();
          }}
          onSelect={(e) => mention.track(e.currentTarget.value, e.currentTarget.selectionStart)}
          onBlur={() => typing.stop()}
          onKeyDown={(e) => {
            if (mention.onKeyDown(e)) return;
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            } else if (e.key === 'Escape' && (editing || replyTo)) {
              e.preventDefault();
              onCancel();
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
          aria-label={editing ? 'Save edit' : 'Send message'}
          disabled={!text.trim() || tooLong}
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

/** What a line's menu does, stable across renders so memoised lines never re-render for it. */
interface LineHandlers {
  reply: (m: ChatMessage) => void;
  edit: (m: ChatMessage) => void;
  unsend: (m: ChatMessage) => void;
  react: (m: ChatMessage, emoji: string) => void;
  jump: (id: string) => void;
  extra: (m: ChatMessage) => LineAction[];
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
  writable,
  handlers,
  people,
  collapsed,
  collapsedWhenShown,
  quoteFolded: folded,
  onUnhide,
  bare,
}: {
  message: ChatMessage;
  prev?: ChatMessage;
  next?: ChatMessage;
  me: string;
  soft: string;
  writable: boolean;
  handlers: LineHandlers;
  people: ReadonlyMap<string, { firstName: string }>;
  /**
   * Why the line shows collapsed for me (`collapsedReason`, which the announcer follows too):
   * hidden by me or from a member I muted, one collapsed row that shows the line on demand;
   * flagged or holding one of my hidden words, folded with "Show" (issue 30).
   */
  collapsed?: CollapsedReason | null;
  /** How it shows once that row is opened: still folded when flagged or holding a hidden word. */
  collapsedWhenShown?: CollapsedReason | null;
  /** The quote of the line it answers shows folded for me (`quoteFolded`). */
  quoteFolded?: boolean;
  onUnhide?: (lineId: string) => void;
  /** The line alone, inside its collapsed row: no day separator, its own group. */
  bare?: boolean;
}) {
  const newDay = !prev || dayLabel(prev.createdAt) !== dayLabel(message.createdAt);
  if ((collapsed === 'hidden' || collapsed === 'muted') && message.sender) {
    return (
      <>
        {newDay && (
          <li className="my-3 flex justify-center" aria-hidden>
            <span className="rounded-full bg-muted px-3 py-1 text-xs font-medium text-muted-foreground">{dayLabel(message.createdAt)}</span>
          </li>
        )}
        <li className="mt-3">
          <CollapsedLine reason={collapsed} name={message.sender.firstName} onUnhide={() => onUnhide?.(message.id)}>
            <ol>
              <MessageItem
                message={message}
                me={me}
                soft={soft}
                writable={writable}
                handlers={handlers}
                people={people}
                collapsed={collapsedWhenShown}
                quoteFolded={folded}
                bare
              />
            </ol>
          </CollapsedLine>
        </li>
      </>
    );
  }
  const separator = !bare && newDay && (
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
        <HostLine message={message} />
      </>
    );
  }

  const mine = message.sender.id === me;
  const mentionsMe = !mine && Boolean(message.mentions?.includes(me));
  const mentioned = (message.mentions ?? []).flatMap((id) => {
    const p = people.get(id);
    return p ? [{ id, firstName: p.firstName }] : [];
  });
  const startsGroup = newDay || !sameGroup(prev, message);
  const endsGroup = !sameGroup(message, next) || Boolean(message.reactions?.length);
  const unsent = Boolean(message.unsentAt);
  const who = mine ? 'You' : message.sender.firstName;
  const label = unsent
    ? `${who} unsent a message, ${time}`
    : `${who} at ${time}${message.replyTo ? ', replying' : ''}${mentionsMe ? ', mentioning you' : ''}: ${collapsed ? 'message hidden' : message.body}${message.editedAt ? ' (edited)' : ''}`;
  const extra = handlers.extra(message);
  const bubble = (
    <div
      className={cn(
        'whitespace-pre-wrap rounded-2xl px-3.5 py-2 text-[15px] leading-snug',
        mine ? 'rounded-br-md bg-primary text-primary-foreground' : 'rounded-bl-md bg-muted text-foreground',
        mentionsMe && 'ring-2 ring-amber-400 dark:ring-amber-300',
      )}
      data-mentions-me={mentionsMe || undefined}
    >
      {message.replyTo && <ReplyQuote quote={message.replyTo} own={mine} onJump={handlers.jump} folded={folded} />}
      {message.hidden ? (
        <span className="inline-flex items-center gap-1.5 italic text-muted-foreground">
          <EyeOff className="size-3.5" aria-hidden /> Hidden while we check
        </span>
      ) : mentioned.length ? (
        <MentionText parts={splitMentions(message.body, mentioned)} me={me} mine={mine} />
      ) : (
        message.body
      )}
    </div>
  );
  return (
    <Fragment>
      {separator}
      <li className={cn('flex items-end gap-2', mine ? 'justify-end' : 'justify-start', startsGroup ? 'mt-3' : 'mt-0.5')}>
        {!mine && (
          <span className="w-8 shrink-0">
            {endsGroup && <Avatar name={message.sender.firstName} src={message.sender.avatarUrl} className="size-8" />}
          </span>
        )}
        <div className={cn('flex min-w-0 max-w-[85%] flex-col sm:max-w-[75%]', mine ? 'items-end' : 'items-start')}>
          {!mine && startsGroup && (
            <span className="mb-0.5 ml-3 text-xs font-semibold text-muted-foreground">{message.sender.firstName}</span>
          )}
          <LineActions
            lineId={message.id}
            label={label}
            side={mine ? 'right' : 'left'}
            myReaction={myReaction(message.reactions, me)}
            onReply={writable && !unsent ? () => handlers.reply(message) : undefined}
            onReact={writable && !unsent ? (emoji) => handlers.react(message, emoji) : undefined}
            onEdit={writable && mine && !unsent && withinEditWindow(message.createdAt) ? () => handlers.edit(message) : undefined}
            onUnsend={mine && !unsent ? () => handlers.unsend(message) : undefined}
            extraActions={extra}
          >
            {unsent ? (
              <p className="rounded-2xl border border-dashed border-border px-3.5 py-2 text-sm italic text-muted-foreground">
                {mine ? 'You unsent a message' : `${message.sender.firstName} unsent a message`}
              </p>
            ) : mine ? (
              bubble
            ) : (
              // Flagged lines and hidden words arrive folded, with "Does this bother you?" (issue 30).
              <LineNotice
                line={{ id: message.id, body: message.body, sender: message.sender, mixerId: message.mixerId, flag: message.flag ?? null }}
                collapsed={collapsed ?? null}
              >
                {bubble}
              </LineNotice>
            )}
          </LineActions>
          {!unsent && (
            <ReactionChips
              groups={message.reactions}
              me={me}
              align={mine ? 'end' : 'start'}
              onToggle={writable ? (emoji) => handlers.react(message, emoji) : undefined}
            />
          )}
          {(endsGroup || message.editedAt) && (
            <span className={cn('mt-0.5 text-[11px] text-muted-foreground', mine ? 'mr-2' : 'ml-3')} aria-hidden>
              {endsGroup && <time dateTime={message.createdAt}>{time}</time>}
              {message.editedAt && !unsent && <span>{endsGroup ? ' · ' : ''}edited</span>}
            </span>
          )}
        </div>
      </li>
    </Fragment>
  );
});

/**
 * The first line I had not read when the chat opened (issue 29), fixed from then on so the
 * divider stays where it was while I read: a line id, null when nothing is new (or I never
 * opened the chat before), undefined while the read state loads. When every loaded line is
 * new, the divider sits above the oldest loaded one.
 */
function useFirstUnread(
  messages: ChatMessage[],
  readState: { data?: { readAt: string | null }; isError: boolean },
  me: string,
): string | null | undefined {
  const [first, setFirst] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    if (first !== undefined || messages.length === 0) return;
    if (readState.isError) return setFirst(null);
    if (!readState.data) return;
    const readAt = readState.data.readAt;
    if (!readAt) return setFirst(null);
    const read = Date.parse(readAt);
    const at = messages.findIndex((m) => Date.parse(m.createdAt) > read && m.sender?.id !== me);
    setFirst(at < 0 ? null : messages[at].id);
  }, [first, messages, readState.data, readState.isError, me]);
  return messages.length === 0 ? null : first;
}
