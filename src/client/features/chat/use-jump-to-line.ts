import { type RefObject, useCallback, useRef } from 'react';

const MAX_PAGES = 20;
const HIGHLIGHT_MS = 2000;

/**
 * Scrolls the chat to line `id` and highlights it for a moment, loading older pages until it
 * is there (a reply's quote may point far back). Answers false when it is nowhere.
 */
export function useJumpToLine(scroller: RefObject<HTMLElement | null>, older: { hasMore: () => boolean; load: () => Promise<unknown> }) {
  const olderRef = useRef(older);
  olderRef.current = older;
  return useCallback(
    async (id: string): Promise<boolean> => {
      const find = () => scroller.current?.querySelector<HTMLElement>(`[data-line-id="${CSS.escape(id)}"]`) ?? null;
      let el = find();
      for (let i = 0; !el && i < MAX_PAGES && olderRef.current.hasMore(); i++) {
        await olderRef.current.load();
        await new Promise((r) => requestAnimationFrame(r));
        el = find();
      }
      if (!el) return false;
      const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      el.scrollIntoView({ block: 'center', behavior: reduce ? 'auto' : 'smooth' });
      el.focus({ preventScroll: true });
      el.dataset.highlight = 'true';
      setTimeout(() => {
        delete el.dataset.highlight;
      }, HIGHLIGHT_MS);
      return true;
    },
    [scroller],
  );
}
