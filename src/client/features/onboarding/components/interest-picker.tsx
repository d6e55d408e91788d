import { Search, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { INTERESTS_MAX_UI } from '../../../../shared/constants';
import { INTEREST_CATEGORIES } from '../../../../shared/reference/catalog';
import { PROFILE_MESSAGES } from '../../../../shared/profile-texts';
import { Button } from '../../../components/ui/button';
import { ChipSkeleton, ToggleChip } from '../../../components/ui/chip';
import { Input, Label } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { cn } from '../../../lib/cn';
import { type CatalogInterest, useInterests } from '../api';

const ALL = 'All';

/**
 * The interest picker's rules, the same in the wizard (step 7) and on the profile page: search
 * and a category filter over the catalogue, 1 to 15 picks, the spec's toast at the 16th.
 * `setPicked` receives an updater, so picks made in quick succession all count.
 */
export function useInterestPicker(picked: string[], setPicked: (next: (current: string[]) => string[]) => void) {
  const toast = useToast();
  const catalog = useInterests();
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<string>(ALL);
  const full = picked.length >= INTERESTS_MAX_UI;

  const groups = useMemo(() => {
    const needle = query.trim().toLocaleLowerCase('en-GB');
    const byCategory = new Map<string, CatalogInterest[]>();
    for (const i of catalog.data ?? []) {
      if (category !== ALL && i.category !== category) continue;
      if (needle && !i.name.toLocaleLowerCase('en-GB').includes(needle)) continue;
      byCategory.set(i.category, [...(byCategory.get(i.category) ?? []), i]);
    }
    return [...byCategory.entries()];
  }, [catalog.data, query, category]);

  /** Adds as many as the limit leaves room for (several: a suggestion that is already listed); past it, says so. */
  const pick = (names: string[]) => {
    const fresh = names.filter((n) => !picked.includes(n));
    const room = Math.max(0, INTERESTS_MAX_UI - picked.length);
    if (fresh.length > room) toast({ title: PROFILE_MESSAGES.interestsMaxToastTitle, description: PROFILE_MESSAGES.interestsMaxToast });
    const take = fresh.slice(0, room);
    if (take.length) setPicked((current) => [...current, ...take.filter((n) => !current.includes(n))]);
  };
  const toggle = (name: string) => (picked.includes(name) ? setPicked((current) => current.filter((x) => x !== name)) : pick([name]));
  const reset = () => {
    setQuery('');
    setCategory(ALL);
  };

  return { catalog, query, setQuery, category, setCategory, groups, picked, full, toggle, pick, reset };
}

export type InterestPicker = ReturnType<typeof useInterestPicker>;

/** The search box and the category chips. `compact` is the profile page's smaller size. */
export function InterestFilters({ picker, id, compact = false }: { picker: InterestPicker; id: string; compact?: boolean }) {
  return (
    <>
      <div>
        <Label htmlFor={id} className="sr-only">
          Search interests
        </Label>
        <div className="relative">
          <Search
            className={cn(
              'pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-muted-foreground',
              compact ? 'size-4' : 'size-4.5',
            )}
            aria-hidden
          />
          <Input
            id={id}
            type="search"
            placeholder="Search interests"
            className={compact ? 'pl-10' : 'h-12 pl-10 text-base md:text-base'}
            value={picker.query}
            onChange={(e) => picker.setQuery(e.target.value)}
            onKeyDown={(e) => {
              // Enter searches; it does not submit the form around the picker.
              if (e.key === 'Enter') e.preventDefault();
            }}
          />
        </div>
      </div>
      <fieldset className="min-w-0">
        <legend className="sr-only">Category</legend>
        <div className={cn('-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:px-0', !compact && 'sm:overflow-visible')}>
          {[ALL, ...INTEREST_CATEGORIES].map((c) => (
            <button
              key={c}
              type="button"
              aria-pressed={picker.category === c}
              onClick={() => picker.setCategory(c)}
              className={cn(
                'shrink-0 rounded-full font-semibold whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                compact ? 'h-8 px-3 text-xs' : 'h-9 px-3.5 text-sm',
                picker.category === c
                  ? 'bg-foreground text-background'
                  : 'bg-muted text-muted-foreground hover:bg-secondary hover:text-secondary-foreground',
              )}
            >
              {c}
            </button>
          ))}
        </div>
      </fieldset>
    </>
  );
}

/** The catalogue grouped by category, with its loading, failed and no-match states. */
export function InterestCatalogue({ picker, compact = false }: { picker: InterestPicker; compact?: boolean }) {
  const { catalog, groups, query, picked, full, toggle } = picker;
  if (catalog.isPending) return <ChipSkeleton count={compact ? 12 : 16} />;
  if (!catalog.data?.length) {
    return (
      <div className={cn('flex flex-col items-start', compact ? 'gap-2' : 'gap-3 rounded-2xl border border-dashed border-border p-5')}>
        <p className={cn('text-muted-foreground', compact && 'text-sm')}>We couldn't load the interests just now.</p>
        <Button variant="outline" size="sm" onClick={() => void catalog.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (groups.length === 0) {
    return compact ? (
      <p className="p-3 text-center text-sm text-muted-foreground">No interests match “{query.trim()}”. Suggest it with “Other”.</p>
    ) : (
      <div className="rounded-2xl border border-dashed border-border p-6 text-center">
        <p className="font-medium">No interests match “{query.trim()}”.</p>
        <p className="mt-1 text-sm text-muted-foreground">Try another word, or suggest it with “Other”.</p>
        {query && (
          <Button variant="ghost" size="sm" className="mt-3" onClick={() => picker.setQuery('')}>
            <X aria-hidden />
            Clear search
          </Button>
        )}
      </div>
    );
  }
  const Heading = compact ? 'h3' : 'h2';
  return (
    <div className={compact ? 'grid gap-5' : 'grid gap-7'}>
      {groups.map(([name, items]) => (
        <section key={name} aria-labelledby={`cat-${name}`}>
          <Heading
            id={`cat-${name}`}
            className={cn('font-bold tracking-wider text-muted-foreground uppercase', compact ? 'text-xs' : 'text-sm')}
          >
            {name}
          </Heading>
          <div className={cn('flex flex-wrap', compact ? 'mt-2 gap-2' : 'mt-3 gap-2.5')}>
            {items.map((i) => {
              const on = picked.includes(i.name);
              return (
                <ToggleChip key={i.id} selected={on} softDisabled={full && !on} onClick={() => toggle(i.name)}>
                  {i.name}
                </ToggleChip>
              );
            })}
          </div>
        </section>
      ))}
    </div>
  );
}
