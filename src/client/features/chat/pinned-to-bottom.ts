import { type RefObject, useEffect } from 'react';

/**
 * Keeps a chat's log on its newest line while the reader is there (`atBottom`): when the log's box
 * shrinks (a phone keyboard, a taller composer, a reply bar) or its lines grow (a reaction, an
 * edit, a long line wrapping, a quote), nothing slides out of view below. `ready` changes when the
 * log's element is replaced (its first page loaded).
 */
export function usePinnedToBottom(scroller: RefObject<HTMLElement | null>, atBottom: RefObject<boolean>, ready: unknown) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: `ready` is when the log's element changes, which the ref cannot say
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const pin = () => {
      if (atBottom.current && el.scrollHeight - el.scrollTop - el.clientHeight > 1) el.scrollTop = el.scrollHeight;
    };
    const sizes = new ResizeObserver(pin);
    const watchChildren = () => {
      for (const child of el.children) sizes.observe(child);
    };
    sizes.observe(el);
    watchChildren();
    // The log's own children come and go (the loading state, the list): each new one is watched too.
    const children = new MutationObserver(watchChildren);
    children.observe(el, { childList: true });
    return () => {
      sizes.disconnect();
      children.disconnect();
    };
  }, [scroller, atBottom, ready]);
}
