import { useCallback, useMemo, useRef, useState } from 'react';

/** Lines a chat opens with: a phone's screen and a scroll's worth above it. */
export const FIRST_LINES = 24;

interface History {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<{ isError: boolean }>;
}

/**
 * The lines on screen, for both chats (issue 29): the newest FIRST_LINES of those loaded when the
 * chat opens (more when the first unread line is further up), then more above each time `older`
 * is called — first those already loaded, `pageSize` at a time, then older pages from the server.
 * Rendering every loaded line at once made taking over a busy chat one long task on a phone (its
 * TBT). The count hidden above is fixed when lines first arrive, so new lines below never push one
 * out at the top. `older` answers the page fetch's result when it fetched one.
 */
export function useLineWindow<Line extends { id: string }>(
  messages: Line[],
  firstUnread: string | null | undefined,
  history: History,
  pageSize: number,
) {
  const opened = useRef<number | null>(null);
  if (opened.current === null && messages.length) opened.current = Math.max(0, messages.length - FIRST_LINES);
  const [revealed, setRevealed] = useState<number | null>(null);
  let hidden = Math.min(revealed ?? opened.current ?? 0, messages.length);
  // The chat opens at the first unread line, with a few lines of context above it.
  const unreadAt = firstUnread ? messages.findIndex((m) => m.id === firstUnread) : -1;
  if (unreadAt >= 0 && revealed === null) hidden = Math.min(hidden, Math.max(0, unreadAt - 3));
  const historyRef = useRef(history);
  historyRef.current = history;
  const hiddenRef = useRef(hidden);
  hiddenRef.current = hidden;
  const older = useCallback(
    async ({ all = false }: { all?: boolean } = {}): Promise<{ isError: boolean } | undefined> => {
      const now = hiddenRef.current;
      if (now > 0) {
        setRevealed(all ? 0 : Math.max(0, now - pageSize));
        await new Promise((r) => setTimeout(r));
        return undefined;
      }
      setRevealed(0);
      const h = historyRef.current;
      return h.hasNextPage && !h.isFetchingNextPage ? h.fetchNextPage() : undefined;
    },
    [pageSize],
  );
  const lines = useMemo(() => (hidden ? messages.slice(hidden) : messages), [messages, hidden]);
  return { lines, more: hidden > 0 || history.hasNextPage, older };
}
