import { useCallback, useEffect, useState } from 'react';
import { SIDEBAR_COOKIE, SIDEBAR_COOKIE_MAX_AGE_S } from '../../../shared/constants';
import { cookieValue, setPageCookie } from '../../lib/cookies';

function readCookie(): boolean {
  return cookieValue(SIDEBAR_COOKIE) !== 'false';
}

/** Expanded/collapsed, remembered in a cookie for 7 days, toggled with Ctrl+B / Cmd+B (spec §2, §9). */
export function useSidebarState() {
  const [expanded, setExpanded] = useState(readCookie);
  const toggle = useCallback(() => {
    setExpanded((prev) => {
      const next = !prev;
      setPageCookie(SIDEBAR_COOKIE, String(next), SIDEBAR_COOKIE_MAX_AGE_S);
      return next;
    });
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() === 'b' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey) {
        e.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);
  return { expanded, toggle };
}
