import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EyeOff, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { GUARD_MESSAGES, HIDDEN_WORDS_MAX, hiddenWordSchema } from '../../../../shared/schemas/guard';
import { hiddenWordsKey, useHiddenWords } from '../../../components/safety/hidden-words';
import { Button } from '../../../components/ui/button';
import { RemovableChip } from '../../../components/ui/chip';
import { Input } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { api } from '../../../lib/api';
import { errorMessage } from '../components/form-errors';
import { SettingsCard, SettingsSection } from '../components/section';

/**
 * Hidden words (issue 30): the member's own list of words, phrases or emoji; lines containing
 * them arrive folded away in mixers and private chats. Private: nobody else sees the list.
 */
export function HiddenWordsSection() {
  const qc = useQueryClient();
  const toast = useToast();
  const list = useHiddenWords();
  const [word, setWord] = useState('');
  const [error, setError] = useState<string | undefined>();
  const ids = useId();
  const save = useMutation({
    mutationFn: (words: string[]) => api<{ words: string[] }>('/api/settings/hidden-words', { method: 'PUT', body: { words } }),
    onSuccess: (data) => qc.setQueryData(hiddenWordsKey, data),
    onError: (err) => toast({ variant: 'destructive', title: 'Not saved', description: errorMessage(err) }),
  });
  const words = list.data?.words ?? [];
  const full = words.length >= HIDDEN_WORDS_MAX;

  const add = () => {
    const parsed = hiddenWordSchema.safeParse(word);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    if (words.some((w) => w.toLocaleLowerCase('en-GB') === parsed.data.toLocaleLowerCase('en-GB'))) {
      return setError(GUARD_MESSAGES.hiddenWordDuplicate);
    }
    if (full) return setError(GUARD_MESSAGES.hiddenWordsTooMany);
    setError(undefined);
    save.mutate([...words, parsed.data], { onSuccess: () => setWord('') });
  };

  return (
    <SettingsSection
      id="hidden-words"
      icon={EyeOff}
      title="Hidden words"
      description="Lines with these words, phrases or emoji arrive folded away in mixers and private chats. Only you see this list."
    >
      <SettingsCard className="grid gap-3 p-5">
        <form
          className="grid gap-1.5"
          onSubmit={(e) => {
            e.preventDefault();
            add();
          }}
        >
          <label htmlFor={`${ids}-word`} className="text-sm font-medium">
            Add a word, phrase or emoji
          </label>
          <div className="flex gap-2">
            <Input
              id={`${ids}-word`}
              value={word}
              maxLength={60}
              onChange={(e) => {
                setWord(e.target.value);
                if (error) setError(undefined);
              }}
              aria-invalid={Boolean(error) || undefined}
              aria-describedby={`${ids}-help`}
              placeholder="e.g. ex, gym bro, 🍆"
              disabled={list.isPending || list.isError}
            />
            <Button type="submit" variant="outline" disabled={!word.trim() || save.isPending || list.isPending}>
              <Plus className="size-4" aria-hidden /> Add
            </Button>
          </div>
          <p
            id={`${ids}-help`}
            className={error ? 'text-sm font-medium text-destructive' : 'text-xs text-muted-foreground'}
            role={error ? 'alert' : undefined}
          >
            {error ?? `Capitals, accents and swapped letters (like “3” for “e”) match too. Up to ${HIDDEN_WORDS_MAX}.`}
          </p>
        </form>
        {list.isPending ? (
          <p className="text-sm text-muted-foreground" role="status">
            Loading your hidden words…
          </p>
        ) : list.isError ? (
          <div className="flex items-center gap-3 text-sm">
            <span>We couldn't load your hidden words.</span>
            <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </div>
        ) : words.length === 0 ? (
          <p className="text-sm text-muted-foreground">No hidden words yet.</p>
        ) : (
          <ul className="flex flex-wrap gap-2" aria-label="Your hidden words">
            {words.map((w) => (
              <li key={w}>
                <RemovableChip label={w} onRemove={() => save.mutate(words.filter((x) => x !== w))} />
              </li>
            ))}
          </ul>
        )}
        <p className="text-xs text-muted-foreground tabular-nums">
          {words.length} of {HIDDEN_WORDS_MAX}
        </p>
      </SettingsCard>
    </SettingsSection>
  );
}
