import { CalendarClock, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { cookieValue, setPageCookie } from '../../../lib/cookies';
import { useAvailability } from './api';

/** The editor's dialog is not on Home's first load (issue 33): it loads once the prompt shows. */
const loadDialog = () => import('./availability-dialog');
const AvailabilityDialog = lazy(loadDialog);

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
  const data = hidden ? undefined : query.data;
  const showing = data?.availability.length === 0;
  useEffect(() => {
    if (showing) void loadDialog();
  }, [showing]);
  if (!data || !showing) return null;

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
        <Suspense>
          <AvailabilityDialog initial={{ availability: data.availability, topicAsks: data.topicAsks }} onOpenChange={setOpen} />
        </Suspense>
      )}
    </Card>
  );
}
