import { useEffect } from 'react';

/** "Title · Fancy" in the browser tab while the page is shown; the previous title comes back after. */
export function usePageTitle(title: string | null | undefined) {
  useEffect(() => {
    if (!title) return;
    const previous = document.title;
    document.title = `${title} · Fancy`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
