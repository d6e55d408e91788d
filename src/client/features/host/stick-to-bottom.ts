import { type RefObject, useLayoutEffect } from 'react';

const NEAR_BOTTOM_PX = 80;
/** Height added to each log by host elements that appeared in this commit (the poll and the nudge can come together). */
const grown = new WeakMap<HTMLElement, number>();

/**
 * Something of the host's appeared after the chat painted (the poll's answers once the host view
 * loads, the nudge above the composer): if the member was reading the newest lines, keep them
 * in view rather than pushing them out of sight. Someone reading older lines is not moved.
 */
export function useStickToBottom(ref: RefObject<HTMLElement | null>, active: boolean) {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!active || !el) return;
    const log = el.closest('[role="log"]') ?? el.parentElement?.closest('section')?.querySelector('[role="log"]');
    if (!(log instanceof HTMLElement)) return;
    const pending = grown.get(log);
    grown.set(log, (pending ?? 0) + el.offsetHeight);
    if (pending !== undefined) return;
    // After every layout effect of this commit, before paint.
    queueMicrotask(() => {
      const by = grown.get(log) ?? 0;
      grown.delete(log);
      if (log.scrollHeight - log.scrollTop - log.clientHeight < by + NEAR_BOTTOM_PX) log.scrollTop = log.scrollHeight;
    });
  }, [ref, active]);
}
