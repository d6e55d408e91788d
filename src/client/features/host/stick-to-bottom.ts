import { type RefObject, useLayoutEffect } from 'react';

const NEAR_BOTTOM_PX = 80;

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
    const fromBottom = log.scrollHeight - log.scrollTop - log.clientHeight;
    if (fromBottom < el.offsetHeight + NEAR_BOTTOM_PX) log.scrollTop = log.scrollHeight;
  }, [ref, active]);
}
