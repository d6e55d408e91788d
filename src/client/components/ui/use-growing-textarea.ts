import { type RefObject, useLayoutEffect } from 'react';

/** Whether the browser grows a textarea with its text by CSS (`field-sizing: content`). */
const FIELD_SIZING = typeof CSS !== 'undefined' && CSS.supports?.('field-sizing', 'content');

/**
 * A composer that grows with its text up to `max` px (about six lines): by CSS where the
 * browser can (the textarea carries `[field-sizing:content]`), else measured whenever the text
 * changes, which costs a layout on every key.
 */
export function useGrowingTextarea(ref: RefObject<HTMLTextAreaElement | null>, text: string, max = 160) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure whenever the text changes
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || FIELD_SIZING) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, max)}px`;
  }, [ref, text, max]);
}
