import { useEffect, useRef, useState } from 'react';
import type { ServerEvent } from '../../../shared/realtime/events';
import { useRealtime } from '../../lib/realtime';

const RETRY_MS = 3000;

/**
 * Listens to a mixer room for the lifetime of the chat and says whether it is connected (for
 * the "Connecting…" state): the socket is open and the server confirmed the subscription.
 * A refused subscription (membership not visible yet) is retried. The shared client has a
 * single status callback, so its status is read rather than hooked.
 */
export function useMixerRoom(room: string, onEvent: (event: ServerEvent) => void): boolean {
  const client = useRealtime();
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const [open, setOpen] = useState(client?.status === 'open');
  const [subscribed, setSubscribed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the subscription on purpose
  useEffect(() => {
    if (!client) return;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const off = client.on((event) => {
      if (event.type === 'subscribed' && event.room === room) setSubscribed(true);
      if (event.type === 'error' && event.room === room) {
        setSubscribed(false);
        retry = setTimeout(() => setAttempt((n) => n + 1), RETRY_MS);
      }
      if (event.type === 'ready') setOpen(true);
      handler.current(event);
    });
    const leave = client.subscribe(room);
    return () => {
      clearTimeout(retry);
      off();
      leave();
    };
  }, [client, room, attempt]);

  useEffect(() => {
    if (!client) return;
    const timer = setInterval(() => {
      const isOpen = client.status === 'open';
      setOpen(isOpen);
      if (!isOpen) setSubscribed(false);
    }, 1000);
    return () => clearInterval(timer);
  }, [client]);

  return open && subscribed;
}
