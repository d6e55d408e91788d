import { useCallback, useState } from 'react';

/**
 * A Radix popup (a line's menu, a reaction's card) mounted the first time it opens, then kept.
 * One Radix root per line or chip on screen — each a Popper whose anchor sets state once mounted —
 * made taking over a busy room one long task on a phone (issue 29, decision 041). Until `armed`,
 * its trigger is a plain button with the same name and look that calls `openNow`.
 */
export function useOpenedOnce() {
  const [armed, setArmed] = useState(false);
  const [open, setOpen] = useState(false);
  const openNow = useCallback(() => {
    setArmed(true);
    setOpen(true);
  }, []);
  return { armed, open, setOpen, openNow };
}
