import { Popover } from 'radix-ui';
import { useOpenedOnce } from './opened-once';
import type { ReactionGroup } from '../../../shared/chat-lines';
import { cn } from '../../lib/cn';

function names(group: ReactionGroup, me: string | undefined): string {
  const list = group.by.map((p) => (p.id === me ? 'You' : p.firstName));
  return list.join(', ');
}

/**
 * The counts under a line. Who reacted is one tap (a small card listing them, with a button to
 * add or take back mine) or one hover (the chip's title) away. Only people the viewer may see
 * are in `groups`: the server leaves the others out.
 */
export function ReactionChips({
  groups,
  me,
  onToggle,
  align,
}: {
  groups: readonly ReactionGroup[] | undefined;
  me: string | undefined;
  onToggle?: (emoji: string) => void;
  align: 'start' | 'end';
}) {
  if (!groups?.length) return null;
  return (
    <ul className={cn('mt-1 flex flex-wrap gap-1', align === 'end' ? 'justify-end' : 'justify-start')} aria-label="Reactions">
      {groups.map((g) => (
        <ReactionChip key={g.emoji} group={g} me={me} onToggle={onToggle} />
      ))}
    </ul>
  );
}

/** One count; who reacted is in a card whose Radix popover mounts the first time the chip is tapped. */
function ReactionChip({ group: g, me, onToggle }: { group: ReactionGroup; me: string | undefined; onToggle?: (emoji: string) => void }) {
  const { armed, open, setOpen, openNow } = useOpenedOnce();
  const mine = g.by.some((p) => p.id === me);
  const who = names(g, me);
  const chip = (
    <button
      type="button"
      title={who}
      aria-label={`${g.emoji} ${g.by.length}: ${who}`}
      aria-haspopup={armed ? undefined : 'dialog'}
      onClick={armed ? undefined : openNow}
      className={cn(
        'inline-flex h-7 items-center gap-1 rounded-full border px-2 text-sm tabular-nums shadow-sm transition-colors',
        mine ? 'border-primary bg-primary/15 text-foreground' : 'border-border bg-card text-muted-foreground hover:bg-muted',
      )}
    >
      <span aria-hidden>{g.emoji}</span>
      <span aria-hidden className="text-xs font-semibold">
        {g.by.length}
      </span>
    </button>
  );
  if (!armed) return <li>{chip}</li>;
  return (
    <li>
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger asChild>{chip}</Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            side="top"
            sideOffset={6}
            className="z-50 max-w-64 rounded-2xl border border-border bg-card p-3 text-sm text-card-foreground shadow-xl"
          >
            <p className="font-semibold">
              <span aria-hidden>{g.emoji}</span> {who}
            </p>
            {onToggle && (
              <Popover.Close asChild>
                <button
                  type="button"
                  onClick={() => onToggle(g.emoji)}
                  className="mt-2 w-full rounded-full bg-muted px-3 py-1.5 text-xs font-semibold hover:bg-accent"
                >
                  {mine ? 'Remove my reaction' : `React with ${g.emoji}`}
                </button>
              </Popover.Close>
            )}
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
    </li>
  );
}
