import { type KeyboardEvent, type RefObject, useCallback, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { insertMention, matchMentionable, mentionQueryAt, mentionsInBody, typedMentions } from '../../../shared/mentions';
import { Avatar } from '../../components/ui/avatar';
import { cn } from '../../lib/cn';

export interface Mentionable {
  id: string;
  firstName: string;
  avatarUrl: string | null;
}

/** At most this many suggestions (a mixer has at most 8 people). */
const SHOWN = 8;

/**
 * `@` in the composer offers the people in the room (issue 29): arrows move, Enter or Tab
 * picks, Escape closes, a tap picks. The picked people go with the line as `mentions` while
 * their `@First` is still in it. Returns the list to render above the box, the key handler to
 * run first in the box's onKeyDown, and what to call on every change.
 */
export function useMentionPicker({
  people,
  text,
  setText,
  input,
}: {
  people: Mentionable[];
  text: string;
  setText: (text: string) => void;
  input: RefObject<HTMLTextAreaElement | null>;
}) {
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const picked = useRef(new Map<string, Mentionable>());
  const listId = useId();

  const options = useMemo(() => (query ? matchMentionable(people, query.query).slice(0, SHOWN) : []), [people, query]);
  const open = options.length > 0 && query !== null && dismissedAt !== query.start;

  /** After every change of text or caret: is an `@query` being typed? */
  const track = useCallback((value: string, caret: number | null) => {
    const q = caret === null ? null : mentionQueryAt(value, caret);
    setQuery(q);
    setActive(0);
    if (!q) setDismissedAt(null);
  }, []);

  const choose = (person: Mentionable) => {
    if (!query) return;
    const caret = input.current?.selectionStart ?? text.length;
    const next = insertMention(text, query.start, caret, person.firstName);
    picked.current.set(person.id, person);
    caretAfterPick.current = next.caret;
    setText(next.text);
    setQuery(null);
  };
  // The caret goes after the inserted name as soon as the box shows it, before the next key: set
  // in a later frame (as it was), keys typed in between went in before the name (seen in CI).
  const caretAfterPick = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the picked name is in the text
  useLayoutEffect(() => {
    const el = input.current;
    const caret = caretAfterPick.current;
    if (!el || caret === null) return;
    caretAfterPick.current = null;
    el.focus();
    el.setSelectionRange(caret, caret);
  }, [text]);

  /** True when the key was the picker's (the box should do nothing else with it). */
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
      return true;
    }
    if ((e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      choose(options[Math.min(active, options.length - 1)]);
      return true;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setDismissedAt(query?.start ?? null);
      return true;
    }
    return false;
  };

  /** The ids to send with `body`: people picked whose `@First` is still in it, and anyone's `@First` typed in full. */
  const mentionsFor = (body: string) => [
    ...new Set([...mentionsInBody(body, [...picked.current.values()]), ...typedMentions(body, people)]),
  ];
  const reset = () => {
    picked.current.clear();
    setQuery(null);
  };

  const activeId = open ? `${listId}-${Math.min(active, options.length - 1)}` : undefined;
  // A textarea keeps its own role (ARIA in HTML allows a textarea no other, so not `combobox` and
  // no `aria-expanded`); the list and its active option are named the ways a textbox may name them.
  const inputProps = {
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? listId : undefined,
    'aria-activedescendant': activeId,
  };

  const list = open ? (
    <div className="absolute inset-x-2 bottom-full z-30 mb-1 sm:inset-x-3" data-testid="mention-list">
      <div
        id={listId}
        role="listbox"
        aria-label="People to mention"
        className="max-h-[min(15rem,40dvh)] overflow-y-auto overscroll-contain rounded-2xl border border-border bg-card p-1 text-card-foreground shadow-lg"
      >
        {options.map((p, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the box handles the keyboard (aria-activedescendant)
          <div
            key={p.id}
            tabIndex={-1}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === Math.min(active, options.length - 1)}
            // Picking with a tap or click must not blur the box first (the keyboard would close on phones).
            onPointerDown={(e) => e.preventDefault()}
            onClick={() => choose(p)}
            onPointerEnter={() => setActive(i)}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-3 py-1.5 text-sm aria-selected:bg-accent aria-selected:text-accent-foreground"
          >
            <Avatar name={p.firstName} src={p.avatarUrl} className="size-7" />
            <span className="font-medium">{p.firstName}</span>
          </div>
        ))}
      </div>
    </div>
  ) : null;

  return { list, onKeyDown, track, mentionsFor, reset, inputProps };
}

/** A line's text with `@First` of the people it mentions set apart; the viewer's own name stands out most. */
export function MentionText({
  parts,
  me,
  mine,
}: {
  parts: { text: string; userId?: string }[];
  me: string;
  /** The line is the viewer's own (on the primary colour). */
  mine: boolean;
}) {
  return (
    <>
      {parts.map((p, i) =>
        p.userId ? (
          <span
            key={i}
            className={cn(
              'rounded px-0.5 font-semibold',
              p.userId === me ? 'bg-amber-200 text-amber-950' : mine ? 'underline' : 'text-primary',
            )}
          >
            {p.text}
          </span>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}
