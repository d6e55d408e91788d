import { useEffect } from 'react';

/** Sets the tab title while a blog page is shown. */
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
