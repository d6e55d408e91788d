import { CalendarClock, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useToast } from '../../../components/ui/toast';
import { cn } from '../../../lib/cn';
import { cookieValue, setPageCookie } from '../../../lib/cookies';
import { useOwnProfile } from '../api';
import { saveErrorMessage, useAvailability, useSaveAvailability } from './api';
import { AvailabilityEditor, type AvailabilityValue } from './availability-editor';
import { SheetDialog } from '../../../components/ui/sheet-dialog';

/**
 * Remembered on this device: "Not now" hides the Home prompt here (docs/decisions/014), in a
 * cookie so a page the server renders (decision 028) knows it too and hydrates without it.
 */
export const AVAILABILITY_PROMPT_DISMISSED = 'fancy-availability-prompt-dismissed';
const ONE_YEAR_S = 365 * 86_400;

const dismissed = () => cookieValue(AVAILABILITY_PROMPT_DISMISSED) === '1';

function dismiss() {
  setPageCookie(AVAILABILITY_PROMPT_DISMISSED, '1', ONE_YEAR_S);
}

/**
 * Home, after onboarding: a friendly card for members who haven't said when they're free,
 * opening the same editor as Profile in a dialog. Dismissible; nothing while loading or on error.
 */
export function AvailabilityPrompt({ className }: { className?: string }) {
  const [hidden, setHidden] = useState(dismissed);
  const query = useAvailability(!hidden);
  const [open, setOpen] = useState(false);
  if (hidden || !query.data || query.data.availability.length > 0) return null;

  return (
    <Card
      className={cn('relative flex flex-col gap-4 overflow-hidden border-primary/30 p-5 pr-12 sm:flex-row sm:items-center', className)}
      data-testid="availability-prompt"
    >
      <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-linear-to-br from-pink-500 to-orange-400 text-white shadow-sm">
        <CalendarClock className="size-6" aria-hidden />
      </span>
      <div className="flex-1">
        <h2 className="font-semibold">When are you usually free?</h2>
        <p className="text-sm text-muted-foreground">Tell us when you're usually free and we'll form mixers around you.</p>
      </div>
      <Button onClick={() => setOpen(true)} className="self-start sm:self-center">
        Choose my times
      </Button>
      <button
        type="button"
        aria-label="Not now"
        title="Not now"
        onClick={() => {
          dismiss();
          setHidden(true);
        }}
        className="absolute top-3 right-3 flex size-9 items-center justify-center rounded-full text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
      >
        <X className="size-4" aria-hidden />
      </button>
      {open && (
        <AvailabilityDialog initial={{ availability: query.data.availability, topicAsks: query.data.topicAsks }} onOpenChange={setOpen} />
      )}
    </Card>
  );
}

function AvailabilityDialog({ initial, onOpenChange }: { initial: AvailabilityValue; onOpenChange(open: boolean): void }) {
  const toast = useToast();
  const interests = useOwnProfile().data?.interests ?? [];
  const save = useSaveAvailability();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    try {
      await save.mutateAsync(value);
      onOpenChange(false);
      toast({ title: 'Thanks!', description: "We'll form mixers around the times you picked. Change them any time in Profile." });
    } catch (err) {
      const message = saveErrorMessage(err);
      setError(message);
    }
  };

  return (
    <SheetDialog
      open
      onOpenChange={onOpenChange}
      wide
      title="When you're free"
      description="Pick the times that usually suit you and the topics you'd join. We'll form mixers around you."
    >
      <form
        className="flex min-h-0 flex-1 flex-col"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!save.isPending) void submit();
        }}
      >
        <div className="overflow-y-auto px-5 py-4 sm:px-6">
          <AvailabilityEditor
            value={value}
            onChange={(v) => {
              setValue(v);
              setError(null);
            }}
            myInterests={interests}
            idPrefix="home-availability"
            error={error}
          />
        </div>
        <div className="flex flex-col-reverse gap-2 border-t border-border px-5 py-3 sm:flex-row sm:justify-end sm:px-6">
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending || (value.availability.length === 0 && value.topicAsks.length === 0)}>
            {save.isPending ? 'Saving…' : 'Save'}
          </Button>
        </div>
      </form>
    </SheetDialog>
  );
}
