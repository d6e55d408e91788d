import { cn } from '../../lib/cn';
import { useLiveRoomState } from './live-store';
import { typingText } from './typing';

/**
 * "Maya is typing…" under the lines. Not a live region: screen readers hear new lines, not
 * typing noise (issue 29). Its height is kept when empty so the chat does not jump.
 */
export function TypingIndicator({
  room,
  me,
  nameOf,
  className,
}: {
  room: string;
  me: string;
  /** First names of the people I may see; anyone else (hidden, unknown) is never shown. */
  nameOf: (userId: string) => string | undefined;
  className?: string;
}) {
  const { typing } = useLiveRoomState(room);
  const names = [...typing.keys()].filter((id) => id !== me).flatMap((id) => nameOf(id) ?? []);
  const text = typingText(names);
  return (
    <div className={cn('flex h-6 items-center gap-2 px-4 text-xs text-muted-foreground', className)} data-testid="typing-indicator">
      {text && (
        <>
          <span className="flex gap-0.5" aria-hidden>
            {[0, 1, 2].map((i) => (
              <span
                key={i}
                className="size-1.5 animate-bounce rounded-full bg-muted-foreground/70 motion-reduce:animate-none"
                style={{ animationDelay: `${i * 150}ms` }}
              />
            ))}
          </span>
          <span className="truncate font-medium">{text}</span>
        </>
      )}
    </div>
  );
}

/** "3 here" with a green dot: how many of the people I may see are in the room now (me included). */
export function PresenceCount({ room, visible, className }: { room: string; visible: (userId: string) => boolean; className?: string }) {
  const { present } = useLiveRoomState(room);
  const n = [...present].filter(visible).length;
  if (n === 0) return null;
  return (
    <span
      className={cn('inline-flex items-center gap-1.5 text-xs font-medium text-muted-foreground', className)}
      data-testid="presence-count"
    >
      <span className="size-2 rounded-full bg-success" aria-hidden />
      {n} here
    </span>
  );
}

/** A green dot on an avatar while that member is in the room. */
export function PresenceDot({ room, userId, className }: { room: string; userId: string; className?: string }) {
  const { present } = useLiveRoomState(room);
  if (!present.has(userId)) return null;
  return (
    <span
      className={cn('absolute bottom-0 right-0 size-3 rounded-full border-2 border-card bg-success', className)}
      role="img"
      aria-label="Here now"
      data-testid="presence-dot"
    />
  );
}
