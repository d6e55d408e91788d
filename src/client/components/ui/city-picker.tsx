import { Check, MapPin, PenLine, Search, X } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { CITY_REGION_MAX } from '../../../shared/constants';
import { findCity, searchCities } from '../../../shared/reference/uk-cities';
import { PROFILE_MESSAGES } from '../../../shared/profile-texts';
import { Button } from './button';
import { Input, Label } from './input';
import { cn } from '../../lib/cn';

export const OTHER_OPTION = 'Other (specify your city)';

/**
 * The UK city picker (spec §2 "City picker"), an ARIA combobox: type to search name, region or
 * country (at most 50 matches), arrows to move, Enter to pick, Escape to close. The last
 * option opens a free-text field for a city that is not in the list.
 */
export function CityPicker({ value, onChange }: { value: string; onChange: (city: string) => void }) {
  const id = useId();
  const listId = `${id}-list`;
  const [mode, setMode] = useState<'search' | 'other'>(() => (value && !findCity(value) ? 'other' : 'search'));
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [otherText, setOtherText] = useState(() => (value && !findCity(value) ? value : ''));
  const inputRef = useRef<HTMLInputElement>(null);
  const otherRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  const matches = useMemo(() => searchCities(query), [query]);
  const optionCount = matches.length + 1;
  const optionId = (i: number) => `${id}-opt-${i}`;

  useEffect(() => {
    if (!open) return;
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active, open]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  const choose = (index: number) => {
    if (index >= matches.length) {
      setOpen(false);
      // Back in the search later, the first city is highlighted again, not "Other".
      setActive(0);
      setMode('other');
      // What was typed in the search (a place the list does not have) is where the member starts.
      setOtherText(query.trim().slice(0, CITY_REGION_MAX));
      requestAnimationFrame(() => otherRef.current?.focus());
      return;
    }
    onChange(matches[index].name);
    setQuery('');
    setOpen(false);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        if (!open) setOpen(true);
        else setActive((a) => Math.min(optionCount - 1, a + 1));
        break;
      case 'ArrowUp':
        e.preventDefault();
        if (!open) setOpen(true);
        else setActive((a) => Math.max(0, a - 1));
        break;
      case 'Home':
        if (open) {
          e.preventDefault();
          setActive(0);
        }
        break;
      case 'End':
        if (open) {
          e.preventDefault();
          setActive(optionCount - 1);
        }
        break;
      case 'Enter':
        if (open) {
          e.preventDefault();
          choose(active);
        }
        break;
      case 'Escape':
        if (open) {
          e.preventDefault();
          setOpen(false);
        } else if (query) {
          e.preventDefault();
          setQuery('');
        }
        break;
      case 'Tab':
        setOpen(false);
        break;
    }
  };

  const saveOther = () => {
    const city = otherText.trim();
    if (city) onChange(city);
  };
  const leaveOther = () => {
    setMode('search');
    setOtherText('');
    onChange('');
    requestAnimationFrame(() => inputRef.current?.focus());
  };

  const known = value ? findCity(value) : undefined;

  return (
    <div ref={rootRef} className="grid gap-4">
      {mode === 'search' ? (
        <div className="relative">
          <Label htmlFor={`${id}-input`} className="mb-1.5 block">
            Search for your city
          </Label>
          <div className="relative">
            <Search className="pointer-events-none absolute top-1/2 left-3.5 size-4.5 -translate-y-1/2 text-muted-foreground" aria-hidden />
            <Input
              ref={inputRef}
              id={`${id}-input`}
              role="combobox"
              aria-autocomplete="list"
              aria-expanded={open}
              aria-controls={listId}
              aria-activedescendant={open ? optionId(active) : undefined}
              autoComplete="off"
              placeholder="Start typing, e.g. Manchester or Wales"
              className="h-12 pl-10 text-base md:text-base"
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setActive(0);
                setOpen(true);
              }}
              onFocus={() => setOpen(true)}
              onClick={() => setOpen(true)}
              onKeyDown={onKeyDown}
            />
          </div>
          <div
            ref={listRef}
            id={listId}
            role="listbox"
            aria-label="UK cities"
            hidden={!open}
            className="absolute inset-x-0 top-full z-20 mt-2 max-h-72 overflow-y-auto overscroll-contain rounded-2xl border border-border bg-card p-1.5 shadow-xl"
          >
            {matches.map((city, i) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keyboard (aria-activedescendant)
              <div
                key={city.name}
                tabIndex={-1}
                id={optionId(i)}
                data-index={i}
                role="option"
                aria-selected={i === active}
                onPointerMove={() => setActive(i)}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(i)}
                className={cn(
                  'flex cursor-pointer items-center gap-3 rounded-xl px-3 py-2.5',
                  i === active && 'bg-accent text-accent-foreground',
                )}
              >
                <MapPin className="size-4 shrink-0 opacity-60" aria-hidden />
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium">{city.name}</span>
                  <span className="block truncate text-xs text-muted-foreground">
                    {city.region}, {city.country}
                  </span>
                </span>
                {value === city.name && <Check className="size-4 text-primary" aria-hidden />}
              </div>
            ))}
            {matches.length === 0 && (
              <div role="presentation" className="px-3 py-2.5 text-sm text-muted-foreground">
                No UK cities match “{query.trim()}”.
              </div>
            )}
            {/* biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keyboard (aria-activedescendant) */}
            <div
              id={optionId(matches.length)}
              tabIndex={-1}
              data-index={matches.length}
              role="option"
              aria-selected={active === matches.length}
              onPointerMove={() => setActive(matches.length)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(matches.length)}
              className={cn(
                'mt-1 flex cursor-pointer items-center gap-3 rounded-xl border-t border-border px-3 py-2.5 font-medium text-primary',
                active === matches.length && 'bg-accent',
              )}
            >
              <PenLine className="size-4 shrink-0" aria-hidden />
              {OTHER_OPTION}
            </div>
          </div>
        </div>
      ) : (
        <div className="rounded-2xl border border-border bg-muted/40 p-4">
          <Label htmlFor={`${id}-other`} className="mb-1.5 block">
            Enter your city
          </Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              ref={otherRef}
              id={`${id}-other`}
              autoComplete="address-level2"
              maxLength={CITY_REGION_MAX}
              aria-describedby={otherText.length >= CITY_REGION_MAX ? `${id}-other-max` : undefined}
              placeholder="e.g. Stornoway"
              className="h-12 text-base sm:flex-1 md:text-base"
              value={otherText}
              onChange={(e) => setOtherText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  saveOther();
                } else if (e.key === 'Escape') {
                  e.preventDefault();
                  leaveOther();
                }
              }}
            />
            <div className="flex gap-2">
              <Button className="h-12 flex-1 sm:flex-none" onClick={saveOther} disabled={!otherText.trim()}>
                Save
              </Button>
              <Button variant="outline" className="h-12 flex-1 sm:flex-none" onClick={leaveOther}>
                Cancel
              </Button>
            </div>
          </div>
          {otherText.length >= CITY_REGION_MAX && (
            <p id={`${id}-other-max`} className="mt-2 text-xs text-muted-foreground">
              {PROFILE_MESSAGES.cityTooLong}
            </p>
          )}
        </div>
      )}

      <div className="min-h-12" aria-live="polite">
        {value && (
          <div className="flex items-center gap-3 rounded-2xl bg-accent px-4 py-3 text-accent-foreground">
            <MapPin className="size-5 shrink-0" aria-hidden />
            <p className="min-w-0 flex-1 font-medium">
              Selected: <span className="font-semibold">{value}</span>
              {known && (
                <span className="ml-1 text-sm font-normal opacity-80">
                  ({known.region}, {known.country})
                </span>
              )}
            </p>
            <button
              type="button"
              aria-label="Clear selected city"
              onClick={() => (mode === 'other' ? leaveOther() : onChange(''))}
              className="flex size-8 items-center justify-center rounded-full hover:bg-primary/15 focus-visible:outline-2 focus-visible:outline-ring"
            >
              <X className="size-4" aria-hidden />
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
