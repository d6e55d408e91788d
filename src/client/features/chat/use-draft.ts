import { useCallback, useEffect, useRef, useState } from 'react';

const PREFIX = 'fancy:draft:';

function read(key: string): string {
  try {
    return window.localStorage.getItem(PREFIX + key) ?? '';
  } catch {
    return '';
  }
}

/**
 * The unsent text of one room (`mixer:ID`, `conversation:ID`), kept in this browser so nothing
 * typed is lost on a reconnect or a reload (issue 29). Written a moment after the last key, and
 * at once when the tab is hidden.
 */
export function useDraft(key: string): [string, (value: string) => void] {
  // Empty at first, as the server rendered the page, then the kept draft: read during the first
  // render, it would differ from the server's markup and hydration would leave the box empty.
  const [value, setValue] = useState('');
  const latest = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const kept = read(key);
    latest.current = kept;
    setValue(kept);
  }, [key]);

  // Only what this box changed is written: another box of the same room that was never typed
  // in (a second layout, a remount) must not overwrite the draft with its empty text.
  const dirty = useRef(false);

  const save = useCallback(() => {
    clearTimeout(timer.current);
    if (!dirty.current) return;
    dirty.current = false;
    try {
      if (latest.current.trim()) window.localStorage.setItem(PREFIX + key, latest.current);
      else window.localStorage.removeItem(PREFIX + key);
    } catch {
      // Storage full or blocked: the draft lives as long as the page.
    }
  }, [key]);

  useEffect(() => {
    const flush = () => save();
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', flush);
    return () => {
      flush();
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', flush);
    };
  }, [save]);

  const update = useCallback(
    (next: string) => {
      latest.current = next;
      dirty.current = true;
      setValue(next);
      clearTimeout(timer.current);
      // An emptied box (a send) is forgotten at once; typing is saved after a short pause.
      if (!next) save();
      else timer.current = setTimeout(save, 300);
    },
    [save],
  );
  return [value, update];
}
