import { Lightbulb, Plus, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useId, useMemo, useState } from 'react';
import {
  PROFILE_MESSAGES,
  parseSuggestionLines,
  SUGGESTION_MAX_CHARS,
  SUGGESTION_MAX_LINES,
  suggestionKey,
} from '../../../../shared/profile-texts';
import { Button } from '../../../components/ui/button';
import { DialogButtons } from '../../../components/ui/panel-dialog';
import { Label, Textarea } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { type CatalogInterest, submitSuggestions } from '../api';

function problemWith(lines: string[]): string | null {
  if (lines.length > SUGGESTION_MAX_LINES) return PROFILE_MESSAGES.suggestionTooMany;
  if (lines.some((l) => l.length > SUGGESTION_MAX_CHARS)) return PROFILE_MESSAGES.suggestionTooLong;
  return null;
}

const quoted = (names: string[]) => names.map((n) => `“${n}”`).join(', ');

/**
 * "+ Other": suggest interests, one per line (spec §2 step 7, §4, §7). A line naming an interest
 * that is already listed is not sent: the member picks the listed one instead.
 */
export function SuggestionDialog({
  preview,
  listed = [],
  onPick,
}: {
  preview: boolean;
  listed?: CatalogInterest[];
  onPick(names: string[]): void;
}) {
  const toast = useToast();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const lines = parseSuggestionLines(text);
  const byKey = useMemo(() => new Map(listed.map((i) => [suggestionKey(i.name), i.name])), [listed]);
  const known = [...new Set(lines.flatMap((l) => byKey.get(suggestionKey(l)) ?? []))];
  const limits = problemWith(lines);
  const problem = limits ?? (known.length ? `${quoted(known)} ${known.length === 1 ? 'is' : 'are'} already in the list.` : null);

  const pickKnown = () => {
    onPick(known);
    const rest = lines.filter((l) => !byKey.has(suggestionKey(l)));
    setText(rest.join('\n'));
    if (!rest.length) setOpen(false);
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!lines.length || problem) return;
    setSubmitting(true);
    try {
      if (preview) {
        toast({ title: 'Preview mode', description: 'Suggestions are not sent from the preview.' });
      } else {
        await submitSuggestions(lines);
        toast({ title: "Thanks for suggesting – we'll review it soon!" });
      }
      setText('');
      setOpen(false);
    } catch {
      toast({ title: 'Error', description: 'Failed to submit suggestions. Please try again.', variant: 'destructive' });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={(o) => !submitting && setOpen(o)}>
      <Dialog.Trigger asChild>
        <Button variant="outline" size="sm" className="border-dashed">
          <Plus aria-hidden />
          Other
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-foreground/40 backdrop-blur-[2px]" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-3xl border border-border bg-card p-6 shadow-2xl focus:outline-none sm:p-7">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-accent text-accent-foreground">
            <Lightbulb className="size-6" aria-hidden />
          </span>
          <Dialog.Title className="mt-4 font-display text-2xl font-extrabold">Can't find your vibe? Tell us!</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-muted-foreground">
            Suggest interests we should add — one per line. We'll review every one.
          </Dialog.Description>
          <form onSubmit={submit} className="mt-5 grid gap-2">
            <Label htmlFor={`${id}-text`}>Your suggestions</Label>
            <Textarea
              id={`${id}-text`}
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={4}
              placeholder={'Urban beekeeping\nKite surfing'}
              aria-invalid={Boolean(problem)}
              aria-describedby={`${id}-help`}
            />
            <p
              id={`${id}-help`}
              className={problem ? 'text-sm font-medium text-destructive' : 'text-xs text-muted-foreground'}
              role={problem ? 'alert' : undefined}
            >
              {problem ?? `Up to ${SUGGESTION_MAX_LINES} at a time, ${SUGGESTION_MAX_CHARS} characters each.`}
            </p>
            {known.length > 0 && !limits && (
              <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={pickKnown}>
                <Plus aria-hidden />
                {known.length === 1 ? 'Pick it instead' : 'Pick them instead'}
              </Button>
            )}
            <DialogButtons
              className="mt-3"
              busy={submitting}
              busyLabel="Sending..."
              label="Send suggestions"
              disabled={!lines.length || Boolean(problem)}
            />
          </form>
          <Dialog.Close asChild>
            <button
              type="button"
              aria-label="Close"
              className="absolute top-4 right-4 flex size-9 items-center justify-center rounded-full text-muted-foreground hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
            >
              <X className="size-4" aria-hidden />
            </button>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
