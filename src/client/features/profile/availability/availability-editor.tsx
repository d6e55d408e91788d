import { Moon, Search, Sun, Sunrise } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import {
  AVAILABILITY_MESSAGES,
  AVAILABILITY_PRESETS,
  DAY_LABELS,
  DAYS,
  PART_INFO,
  PARTS,
  type Part,
  type SlotKey,
  SLOT_KEYS,
  TOPIC_ASKS_MAX,
} from '../../../../shared/availability';
import { Input, Label } from '../../../components/ui/input';
import { cn } from '../../../lib/cn';
import { useInterests } from '../../onboarding';
import { ChipSkeleton, RemovableChip, ToggleChip } from '../../../components/ui/chip';

export interface AvailabilityValue {
  availability: SlotKey[];
  topicAsks: string[];
}

const PART_ICONS: Record<Part, typeof Sun> = { morning: Sunrise, afternoon: Sun, evening: Moon };
const sorted = (slots: Iterable<SlotKey>) => SLOT_KEYS.filter((k) => new Set(slots).has(k));

/**
 * The weekly grid (7 days × morning / afternoon / evening), quick presets above it and the
 * topic-ask picker below: used by Profile's "When you're free" and Home's prompt. The grid is
 * one tab stop; arrow keys move between cells, Space or Enter toggles one.
 */
export function AvailabilityEditor({
  value,
  onChange,
  myInterests,
  idPrefix = 'availability',
  error,
}: {
  value: AvailabilityValue;
  onChange(next: AvailabilityValue): void;
  /** The member's own interests, offered first as asks. */
  myInterests: string[];
  idPrefix?: string;
  error?: string | null;
}) {
  const selected = new Set(value.availability);
  const setSlots = (slots: Iterable<SlotKey>) => onChange({ ...value, availability: sorted(slots) });

  return (
    <div className="grid gap-6">
      <fieldset className="grid gap-3">
        <legend className="text-sm font-semibold">When are you usually free?</legend>
        <div className="flex flex-wrap gap-2">
          {AVAILABILITY_PRESETS.map((preset) => {
            const on = preset.slots.every((s) => selected.has(s));
            return (
              <ToggleChip
                key={preset.key}
                selected={on}
                className="min-h-9 px-3.5 py-1.5"
                onClick={() => {
                  const next = new Set(selected);
                  for (const s of preset.slots) on ? next.delete(s) : next.add(s);
                  setSlots(next);
                }}
              >
                {preset.label}
              </ToggleChip>
            );
          })}
        </div>
        <WeekGrid
          selected={selected}
          onToggle={(key) => {
            const next = new Set(selected);
            next.has(key) ? next.delete(key) : next.add(key);
            setSlots(next);
          }}
        />
        <p className="text-xs text-muted-foreground">
          {selected.size === 0
            ? 'Tap the times that usually suit you. You can change them any time.'
            : `${selected.size} of ${SLOT_KEYS.length} times picked. Mornings ${PART_INFO.morning.hours}, afternoons ${PART_INFO.afternoon.hours}, evenings ${PART_INFO.evening.hours}, UK time.`}
        </p>
      </fieldset>
      <TopicAsks
        idPrefix={idPrefix}
        value={value.topicAsks}
        onChange={(topicAsks) => onChange({ ...value, topicAsks })}
        myInterests={myInterests}
        error={error}
      />
    </div>
  );
}

function WeekGrid({ selected, onToggle }: { selected: Set<SlotKey>; onToggle(key: SlotKey): void }) {
  const [focus, setFocus] = useState(0);
  const cells = useRef<(HTMLButtonElement | null)[]>([]);
  // Cells in reading order: part (row) × day (column).
  const keys = PARTS.flatMap((p) => DAYS.map((d) => `${d}-${p}` as SlotKey));
  const move = (index: number) => {
    const i = Math.max(0, Math.min(keys.length - 1, index));
    setFocus(i);
    cells.current[i]?.focus();
  };
  const onKeyDown = (e: React.KeyboardEvent, i: number) => {
    const cols = DAYS.length;
    const step: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols };
    if (e.key in step) {
      const next = i + step[e.key];
      if (next >= 0 && next < keys.length) move(next);
      e.preventDefault();
    } else if (e.key === 'Home') {
      move(i - (i % cols));
      e.preventDefault();
    } else if (e.key === 'End') {
      move(i - (i % cols) + cols - 1);
      e.preventDefault();
    }
  };

  return (
    <fieldset className="m-0 grid min-w-0 grid-cols-[2rem_repeat(7,minmax(0,1fr))] gap-1 border-0 p-0 sm:grid-cols-[7.5rem_repeat(7,minmax(0,1fr))] sm:gap-1.5">
      <legend className="sr-only">Weekly times. Use the arrow keys to move, Space to pick.</legend>
      <span aria-hidden />
      {DAYS.map((d) => (
        <span key={d} aria-hidden className="pb-0.5 text-center text-[11px] font-semibold text-muted-foreground sm:text-xs">
          <span className="sm:hidden">{DAY_LABELS[d].short.slice(0, 2)}</span>
          <span className="hidden sm:inline">{DAY_LABELS[d].short}</span>
        </span>
      ))}
      {PARTS.map((p, row) => {
        const Icon = PART_ICONS[p];
        return [
          <span key={p} aria-hidden className="flex items-center gap-2 text-muted-foreground">
            <Icon className="size-4 shrink-0" />
            <span className="hidden min-w-0 sm:block">
              <span className="block text-sm font-medium text-foreground">{PART_INFO[p].label}</span>
              <span className="block text-[11px] leading-tight">{PART_INFO[p].hours}</span>
            </span>
          </span>,
          ...DAYS.map((d, col) => {
            const key = `${d}-${p}` as SlotKey;
            const i = row * DAYS.length + col;
            const on = selected.has(key);
            return (
              <button
                key={key}
                ref={(el) => {
                  cells.current[i] = el;
                }}
                type="button"
                aria-pressed={on}
                aria-label={`${DAY_LABELS[d].long} ${PART_INFO[p].label.toLowerCase()}`}
                tabIndex={i === focus ? 0 : -1}
                onFocus={() => setFocus(i)}
                onKeyDown={(e) => onKeyDown(e, i)}
                onClick={() => onToggle(key)}
                data-slot={key}
                className={cn(
                  'flex h-10 items-center justify-center rounded-lg border transition-colors sm:h-12 sm:rounded-xl',
                  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                  on
                    ? 'border-primary bg-primary text-primary-foreground shadow-sm hover:bg-primary/90'
                    : 'border-border bg-card text-muted-foreground hover:border-primary/50 hover:bg-accent/60',
                )}
              >
                <Icon className={cn('size-4', on ? 'opacity-100' : 'opacity-35')} aria-hidden />
              </button>
            );
          }),
        ];
      })}
    </fieldset>
  );
}

function TopicAsks({
  value,
  onChange,
  myInterests,
  idPrefix,
  error,
}: {
  value: string[];
  onChange(next: string[]): void;
  myInterests: string[];
  idPrefix: string;
  error?: string | null;
}) {
  const catalog = useInterests();
  const [query, setQuery] = useState('');
  const [refused, setRefused] = useState(false);
  const full = value.length >= TOPIC_ASKS_MAX;
  const known = useMemo(() => new Set((catalog.data ?? []).map((i) => i.name)), [catalog.data]);

  const toggle = (name: string) => {
    if (value.includes(name)) {
      setRefused(false);
      return onChange(value.filter((v) => v !== name));
    }
    if (full) return setRefused(true);
    onChange([...value, name]);
  };

  const needle = query.trim().toLocaleLowerCase('en-GB');
  const mine = myInterests.filter((i) => !value.includes(i) && (!catalog.data || known.has(i)));
  const found = needle ? (catalog.data ?? []).filter((i) => i.name.toLocaleLowerCase('en-GB').includes(needle)).slice(0, 16) : [];
  const message = error ?? (refused ? AVAILABILITY_MESSAGES.asksTooMany : null);

  return (
    <fieldset className="grid gap-3">
      <legend className="text-sm font-semibold">I'd join one about…</legend>
      <p className="-mt-1 text-xs text-muted-foreground">
        Up to {TOPIC_ASKS_MAX} topics. When enough people ask for the same one, we form a mixer about it.
      </p>
      <div className="flex min-h-11 flex-wrap items-center gap-2 rounded-xl border border-dashed border-border p-2" aria-live="polite">
        {value.length === 0 ? (
          <span className="px-1.5 text-sm text-muted-foreground">No topics yet — pick from your interests or search below.</span>
        ) : (
          value.map((v) => <RemovableChip key={v} label={v} onRemove={() => toggle(v)} />)
        )}
        <span className="ml-auto px-1.5 text-xs font-medium tabular-nums text-muted-foreground">
          {value.length}/{TOPIC_ASKS_MAX}
        </span>
      </div>
      {message && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {message}
        </p>
      )}
      {mine.length > 0 && (
        <div className="grid gap-2">
          <h3 className="text-xs font-bold tracking-wider text-muted-foreground uppercase">From your interests</h3>
          <div className="flex flex-wrap gap-2">
            {mine.map((name) => (
              <ToggleChip key={name} selected={false} softDisabled={full} className="min-h-9 px-3.5 py-1.5" onClick={() => toggle(name)}>
                {name}
              </ToggleChip>
            ))}
          </div>
        </div>
      )}
      <div className="grid gap-2">
        <Label htmlFor={`${idPrefix}-ask-search`} className="text-xs font-bold tracking-wider text-muted-foreground uppercase">
          Search all topics
        </Label>
        <div className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            id={`${idPrefix}-ask-search`}
            type="search"
            placeholder="e.g. Bouldering"
            className="pl-10"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') e.preventDefault();
            }}
          />
        </div>
        {needle &&
          (catalog.isPending ? (
            <ChipSkeleton count={6} />
          ) : catalog.isError || !catalog.data ? (
            <p className="text-sm text-muted-foreground">We couldn't load the topics just now. Try again in a moment.</p>
          ) : found.length === 0 ? (
            <p className="text-sm text-muted-foreground">No topics match “{query.trim()}”.</p>
          ) : (
            <div className="flex flex-wrap gap-2">
              {found.map((i) => {
                const on = value.includes(i.name);
                return (
                  <ToggleChip
                    key={i.id}
                    selected={on}
                    softDisabled={full && !on}
                    className="min-h-9 px-3.5 py-1.5"
                    onClick={() => toggle(i.name)}
                  >
                    {i.name}
                  </ToggleChip>
                );
              })}
            </div>
          ))}
      </div>
    </fieldset>
  );
}
