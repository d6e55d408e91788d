import { useSyncExternalStore } from 'react';
import { TYPING_VISIBLE_MS } from '../../../shared/realtime/live-limits';

/** Who is here and who is typing, per room, as the socket reports it (issue 29). Shared by the chat and the people list. */
interface RoomState {
  present: ReadonlySet<string>;
  /** userId → when their indicator goes (ms). */
  typing: ReadonlyMap<string, number>;
}

const EMPTY: RoomState = { present: new Set(), typing: new Map() };
const rooms = new Map<string, RoomState>();
const listeners = new Map<string, Set<() => void>>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();

function update(room: string, change: (s: RoomState) => RoomState) {
  rooms.set(room, change(rooms.get(room) ?? EMPTY));
  for (const l of listeners.get(room) ?? []) l();
}

/** The next typist's indicator to go, gone on time. */
function scheduleExpiry(room: string) {
  clearTimeout(timers.get(room));
  const s = rooms.get(room);
  if (!s?.typing.size) return;
  const soonest = Math.min(...s.typing.values());
  timers.set(
    room,
    setTimeout(
      () => {
        const now = Date.now();
        update(room, (st) => ({ ...st, typing: new Map([...st.typing].filter(([, until]) => until > now)) }));
        scheduleExpiry(room);
      },
      Math.max(0, soonest - Date.now()) + 10,
    ),
  );
}

export const liveRoom = {
  snapshot(room: string, userIds: string[]) {
    update(room, (s) => ({ ...s, present: new Set(userIds) }));
  },
  presence(room: string, userId: string, online: boolean) {
    update(room, (s) => {
      const present = new Set(s.present);
      const typing = new Map(s.typing);
      if (online) present.add(userId);
      else {
        present.delete(userId);
        typing.delete(userId);
      }
      return { present, typing };
    });
  },
  typing(room: string, userId: string, on: boolean, now = Date.now()) {
    update(room, (s) => {
      const typing = new Map(s.typing);
      if (on) typing.set(userId, now + TYPING_VISIBLE_MS);
      else typing.delete(userId);
      return { ...s, typing };
    });
    scheduleExpiry(room);
  },
  /** The connection dropped: nobody is known to be here until the room is joined again. */
  reset(room: string) {
    clearTimeout(timers.get(room));
    update(room, () => EMPTY);
  },
  get(room: string): RoomState {
    return rooms.get(room) ?? EMPTY;
  },
  subscribe(room: string, listener: () => void) {
    let set = listeners.get(room);
    if (!set) {
      set = new Set();
      listeners.set(room, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  },
};

export function useLiveRoomState(room: string): RoomState {
  return useSyncExternalStore(
    (l) => liveRoom.subscribe(room, l),
    () => liveRoom.get(room),
    () => EMPTY,
  );
}
