import { useEffect } from 'react';

/** "Title · Fancy" while the page is shown. */
export function usePageTitle(title: string | undefined) {
  useEffect(() => {
    if (!title) return;
    const previous = document.title;
    document.title = `${title} · Fancy`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
