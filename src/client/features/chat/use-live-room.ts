import { useEffect, useMemo } from 'react';
import { useRealtime } from '../../lib/realtime';
import { liveRoom } from './live-store';
import { TypingThrottle } from './typing';

/**
 * Feeds the live-room store from the socket for a room this view has joined: presence
 * snapshots and changes, typing, and a typist's indicator cleared by their own line.
 */
export function useLiveRoomEvents(room: string) {
  const client = useRealtime();
  useEffect(() => {
    if (!client) return;
    const off = client.on((event) => {
      if (event.type === 'presence' && event.room === room) liveRoom.snapshot(room, event.userIds);
      else if (event.type === 'presence.changed' && event.room === room) liveRoom.presence(room, event.userId, event.online);
      else if (event.type === 'typing' && event.room === room) liveRoom.typing(room, event.userId, event.typing);
      else if (event.type === 'mixer.message' && room === `mixer:${event.message.mixerId}` && event.message.sender) {
        liveRoom.typing(room, event.message.sender.id, false);
      } else if (event.type === 'dm.message' && room === `conversation:${event.message.matchId}`) {
        liveRoom.typing(room, event.message.senderId, false);
      }
    });
    const timer = setInterval(() => {
      if (client.status !== 'open') liveRoom.reset(room);
    }, 2000);
    return () => {
      off();
      clearInterval(timer);
      liveRoom.reset(room);
    };
  }, [client, room]);
}

/** The composer's typing events for a room: call `keystroke()` on input and `stop()` on send or clear. */
export function useTypingSender(room: string): TypingThrottle {
  const client = useRealtime();
  const throttle = useMemo(() => new TypingThrottle((on) => client?.typing(room, on)), [client, room]);
  useEffect(() => () => throttle.stop(), [throttle]);
  return throttle;
}
