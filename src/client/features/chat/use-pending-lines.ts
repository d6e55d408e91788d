import { useCallback, useEffect, useState } from 'react';
import type { PendingLine } from './pending-line';

const PREFIX = 'fancy:pending:';

function load(room: string): PendingLine[] {
  try {
    const raw = window.localStorage.getItem(PREFIX + room);
    const list = raw ? (JSON.parse(raw) as PendingLine[]) : [];
    // A line that was on its way when the page went away may or may not have arrived: offer Retry
    // (its key makes a retry return the first line if it did).
    return Array.isArray(list) ? list.map((p) => ({ ...p, status: 'failed' as const, error: p.error ?? 'Not sent.' })) : [];
  } catch {
    return [];
  }
}

/**
 * Lines sent but not confirmed, per room, kept in this browser so a reload or a lost
 * connection never loses one (issue 29). `update` changes one by its client key.
 */
export function usePendingLines(room: string) {
  const [lines, setLines] = useState<PendingLine[]>(() => (typeof window === 'undefined' ? [] : load(room)));
  useEffect(() => {
    try {
      if (lines.length) window.localStorage.setItem(PREFIX + room, JSON.stringify(lines));
      else window.localStorage.removeItem(PREFIX + room);
    } catch {
      // Storage blocked: pending lines live as long as the page.
    }
  }, [room, lines]);
  const add = useCallback((line: PendingLine) => setLines((l) => [...l, line]), []);
  const update = useCallback(
    (key: string, change: Partial<PendingLine>) => setLines((l) => l.map((p) => (p.clientKey === key ? { ...p, ...change } : p))),
    [],
  );
  const remove = useCallback((key: string) => setLines((l) => l.filter((p) => p.clientKey !== key)), []);
  return { lines, add, update, remove };
}
