import { Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { INTERESTS_MAX_UI } from '../../../../shared/constants';
import { INTEREST_CATEGORIES } from '../../../../shared/reference/catalog';
import { PROFILE_MESSAGES } from '../../../../shared/schemas/profile';
import { Button } from '../../../components/ui/button';
import { Input, Label } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { cn } from '../../../lib/cn';
import { type CatalogInterest, PickedInterests, useInterests } from '../../onboarding';
import { ChipSkeleton, ToggleChip } from '../../../components/ui/chip';
import { EditableSection } from '../components/editable-section';
import { useSectionEditor } from '../components/use-section-editor';
import { Tags } from './tags';
import type { SectionProps } from './types';

const ALL = 'All';

/** Interests, by the wizard's rules: search, categories, 1 to 15 picks, "+ Other" suggestions. */
export function InterestsSection({ profile, onPreview }: SectionProps) {
  const toast = useToast();
  const catalog = useInterests();
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<string>(ALL);
  const ed = useSectionEditor({
    profile,
    from: (p) => ({ interests: p.interests }),
    toInput: (v) => v,
    savedMessage: 'Your interests are saved.',
    onPreview,
  });
  const picked = ed.value.interests;
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

  const toggle = (name: string) => {
    if (picked.includes(name)) return ed.set((v) => ({ interests: v.interests.filter((x) => x !== name) }));
    if (full) {
      toast({ title: PROFILE_MESSAGES.interestsMaxToastTitle, description: PROFILE_MESSAGES.interestsMaxToast });
      return;
    }
    ed.set((v) => ({ interests: [...v.interests, name] }));
  };
  const error = ed.errors.interests ?? (picked.length === 0 ? PROFILE_MESSAGES.interestsRequired : null);

  return (
    <EditableSection
      id="interests"
      title="Interests"
      description={`Up to ${INTERESTS_MAX_UI}: they're how we suggest mixers worth joining.`}
      editing={ed.editing}
      saving={ed.saving}
      canSave={picked.length >= 1 && picked.length <= INTERESTS_MAX_UI}
      onEdit={ed.start}
      onCancel={() => {
        setQuery('');
        setCategory(ALL);
        ed.cancel();
      }}
      onSave={() => void ed.save()}
      view={<Tags items={profile.interests} tone="accent" empty="No interests yet" />}
    >
      <div className="rounded-xl border border-border p-3">
        <PickedInterests picked={picked} onRemove={toggle} preview={false} />
        {error && (
          <p role="alert" className="mt-2.5 text-sm font-medium text-destructive">
            {error}
          </p>
        )}
      </div>
      <div>
        <Label htmlFor="edit-interest-search" className="sr-only">
          Search interests
        </Label>
        <div className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            id="edit-interest-search"
            type="search"
            placeholder="Search interests"
            className="pl-10"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') e.preventDefault();
            }}
          />
        </div>
      </div>
      <fieldset>
        <legend className="sr-only">Category</legend>
        <div className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:px-0">
          {[ALL, ...INTEREST_CATEGORIES].map((c) => (
            <button
              key={c}
              type="button"
              aria-pressed={category === c}
              onClick={() => setCategory(c)}
              className={cn(
                'h-8 shrink-0 rounded-full px-3 text-xs font-semibold whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
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
      <div className="max-h-96 overflow-y-auto rounded-xl border border-border p-3">
        {catalog.isPending ? (
          <ChipSkeleton count={12} />
        ) : !catalog.data?.length ? (
          <div className="flex flex-col items-start gap-2">
            <p className="text-sm text-muted-foreground">We couldn't load the interests just now.</p>
            <Button variant="outline" size="sm" onClick={() => void catalog.refetch()}>
              Try again
            </Button>
          </div>
        ) : groups.length === 0 ? (
          <p className="p-3 text-center text-sm text-muted-foreground">No interests match “{query.trim()}”. Suggest it with “Other”.</p>
        ) : (
          <div className="grid gap-5">
            {groups.map(([name, items]) => (
              <section key={name} aria-label={name}>
                <h3 className="text-xs font-bold tracking-wider text-muted-foreground uppercase">{name}</h3>
                <div className="mt-2 flex flex-wrap gap-2">
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
    </EditableSection>
  );
}
