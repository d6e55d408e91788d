import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useRealtimeEvents } from '../../lib/realtime';
import { messageKeys } from './api';
import { now } from '../../lib/clock';

/** The current time, refreshed every `ms` so relative times stay true. */
export function useNow(ms = 60_000): Date {
  const [current, setNow] = useState(now);
  useEffect(() => {
    // A hydrated page starts from its render time: catch up at once, then every `ms`.
    setNow(now());
    const timer = setInterval(() => setNow(now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return current;
}

/** Keeps the conversation list live: new messages, new matches and ended ones refetch it (coalesced). */
export function useLiveInbox() {
  const qc = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useRealtimeEvents((event) => {
    if (event.type !== 'dm.message' && event.type !== 'match.created' && event.type !== 'match.ended') return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void qc.invalidateQueries({ queryKey: messageKeys.conversations }), 150);
  });
}

/** Whether the page is visible (a hidden tab must not mark messages read). */
export function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => typeof document === 'undefined' || document.visibilityState === 'visible');
  useEffect(() => {
    const update = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', update);
    window.addEventListener('focus', update);
    return () => {
      document.removeEventListener('visibilitychange', update);
      window.removeEventListener('focus', update);
    };
  }, []);
  return visible;
}
