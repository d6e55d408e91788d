import { type RefObject, useEffect } from 'react';

/**
 * Keeps the composer (and the mention list above it) in view over the on-screen keyboard
 * (issue 29). Chrome on Android resizes the page for the keyboard (`interactive-widget=
 * resizes-content` in index.html), so `dvh` heights shrink with it; Safari on iOS only shrinks
 * the visual viewport, so while the box has focus the composer is scrolled back into it.
 */
export function useKeyboardSafe(target: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const vv = typeof window === 'undefined' ? undefined : window.visualViewport;
    const el = target.current;
    if (!vv || !el) return;
    const keepInView = () => {
      if (!el.contains(document.activeElement)) return;
      const box = el.getBoundingClientRect();
      const bottom = vv.offsetTop + vv.height;
      if (box.bottom > bottom || box.top < vv.offsetTop) el.scrollIntoView({ block: 'end', behavior: 'auto' });
    };
    vv.addEventListener('resize', keepInView);
    el.addEventListener('focusin', keepInView);
    return () => {
      vv.removeEventListener('resize', keepInView);
      el.removeEventListener('focusin', keepInView);
    };
  }, [target]);
}
