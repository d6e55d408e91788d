import { Search, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { INTERESTS_MAX_UI } from '../../../../shared/constants';
import { PROFILE_MESSAGES } from '../../../../shared/schemas/profile';
import { INTEREST_CATEGORIES } from '../../../../shared/reference/catalog';
import { Button } from '../../../components/ui/button';
import { Input, Label } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { cn } from '../../../lib/cn';
import { type CatalogInterest, useInterests } from '../api';
import { ChipSkeleton, ToggleChip } from '../../../components/ui/chip';
import { StepFrame } from '../components/step-frame';
import { PickedInterests } from '../components/picked-interests';
import type { StepProps } from './types';

const ALL = 'All';

/** Step 7 (spec §2, §5): search, category chips, grouped list, 1-15 picks, "+ Other" suggestions. */
export function InterestsStep({ draft, update, back, next, preview }: StepProps) {
  const toast = useToast();
  const interests = useInterests();
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<string>(ALL);
  const picked = draft.interests;
  const full = picked.length >= INTERESTS_MAX_UI;

  const groups = useMemo(() => {
    const needle = query.trim().toLocaleLowerCase('en-GB');
    const byCategory = new Map<string, CatalogInterest[]>();
    for (const i of interests.data ?? []) {
      if (category !== ALL && i.category !== category) continue;
      if (needle && !i.name.toLocaleLowerCase('en-GB').includes(needle)) continue;
      byCategory.set(i.category, [...(byCategory.get(i.category) ?? []), i]);
    }
    return [...byCategory.entries()];
  }, [interests.data, query, category]);

  const toggle = (name: string) => {
    if (picked.includes(name)) {
      update((d) => ({ interests: d.interests.filter((x) => x !== name) }));
      return;
    }
    if (picked.length >= INTERESTS_MAX_UI) {
      toast({ title: PROFILE_MESSAGES.interestsMaxToastTitle, description: PROFILE_MESSAGES.interestsMaxToast });
      return;
    }
    update((d) => ({ interests: d.interests.includes(name) ? d.interests : [...d.interests, name] }));
  };

  return (
    <StepFrame
      wide
      title="What are you into?"
      description="Pick up to 15 things you love. They're how we match you with mixers worth joining."
      actions={{
        onBack: back,
        onContinue: next,
        continueDisabled: picked.length < 1 || picked.length > INTERESTS_MAX_UI,
        hint: picked.length === 0 ? 'Pick at least one interest to continue.' : undefined,
      }}
    >
      <div className="grid gap-4">
        <div>
          <Label htmlFor="interest-search" className="sr-only">
            Search interests
          </Label>
          <div className="relative">
            <Search className="pointer-events-none absolute top-1/2 left-3.5 size-4.5 -translate-y-1/2 text-muted-foreground" aria-hidden />
            <Input
              id="interest-search"
              type="search"
              placeholder="Search interests"
              className="h-12 pl-10 text-base md:text-base"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
        </div>
        <fieldset className="min-w-0">
          <legend className="sr-only">Category</legend>
          <div className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0">
            {[ALL, ...INTEREST_CATEGORIES].map((c) => (
              <button
                key={c}
                type="button"
                aria-pressed={category === c}
                onClick={() => setCategory(c)}
                className={cn(
                  'h-9 shrink-0 rounded-full px-3.5 text-sm font-semibold whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                  category === c
                    ? 'bg-foreground text-background'
                    : 'bg-muted text-muted-foreground hover:bg-secondary hover:text-secondary-foreground',
                )}
              >
                {c}
              </button>
            ))}
          </div>
        </fieldset>
      </div>

      <div className="sticky top-[7.25rem] z-10 -mx-4 mt-5 border-y border-border bg-background/95 px-4 py-3 backdrop-blur sm:top-[7.75rem] sm:mx-0 sm:rounded-2xl sm:border">
        <PickedInterests picked={picked} onRemove={toggle} preview={preview} chipsClassName="max-h-28 overflow-y-auto" />
      </div>

      <div className="mt-6 min-h-64">
        {interests.isPending ? (
          <ChipSkeleton count={16} />
        ) : !interests.data?.length ? (
          <div className="flex flex-col items-start gap-3 rounded-2xl border border-dashed border-border p-5">
            <p className="text-muted-foreground">We couldn't load the interests just now.</p>
            <Button variant="outline" size="sm" onClick={() => void interests.refetch()}>
              Try again
            </Button>
          </div>
        ) : groups.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-border p-6 text-center">
            <p className="font-medium">No interests match “{query.trim()}”.</p>
            <p className="mt-1 text-sm text-muted-foreground">Try another word, or suggest it with “Other”.</p>
            {query && (
              <Button variant="ghost" size="sm" className="mt-3" onClick={() => setQuery('')}>
                <X aria-hidden />
                Clear search
              </Button>
            )}
          </div>
        ) : (
          <div className="grid gap-7">
            {groups.map(([name, items]) => (
              <section key={name} aria-labelledby={`cat-${name}`}>
                <h2 id={`cat-${name}`} className="text-sm font-bold tracking-wider text-muted-foreground uppercase">
                  {name}
                </h2>
                <div className="mt-3 flex flex-wrap gap-2.5">
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
        )}
      </div>
    </StepFrame>
  );
}
