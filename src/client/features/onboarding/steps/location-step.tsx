import { ArrowRight, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { setLocation, skipLocation } from '../api';
import { CityPicker } from '../../../components/ui/city-picker';
import { StepFooter, StepFrame } from '../components/step-frame';
import type { StepProps } from './types';

/** Step 8 (spec §2, §7): city picker; Continue saves the city (set_location) or skips it. */
export function LocationStep({ draft, update, back, next, preview }: StepProps) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const city = draft.cityRegion.trim();

  const skip = async () => {
    setBusy(true);
    update({ cityRegion: '' });
    if (!preview) {
      // Spec §8: a failed skip is silent and moves on.
      await skipLocation().catch((err) => console.warn('Skipping location failed', err));
    }
    setBusy(false);
    next();
  };

  const save = async () => {
    if (!city) return skip();
    setBusy(true);
    try {
      if (!preview) await setLocation(city);
      next();
    } catch (err) {
      toast({ title: 'Failed to set location', description: (err as Error).message || 'Something went wrong', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <StepFrame
      title="Where are you mostly based?"
      description="We'll use it to find mixers and people near you."
      footer={
        <StepFooter
          onBack={back}
          busy={busy}
          below={
            <div className="mt-4 text-center">
              <button
                type="button"
                onClick={() => void skip()}
                disabled={busy}
                className="text-sm font-semibold text-muted-foreground underline underline-offset-4 hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-50"
              >
                Skip location setup
              </button>
            </div>
          }
        >
          <Button size="lg" onClick={() => void save()} disabled={busy} className="min-w-36">
            {city ? 'Continue' : 'Skip for now'}
            <ArrowRight aria-hidden />
          </Button>
        </StepFooter>
      }
    >
      <CityPicker value={draft.cityRegion} onChange={(c) => update({ cityRegion: c })} />
      <p className="mt-2 flex items-start gap-2.5 rounded-2xl border border-border bg-card px-4 py-3 text-sm text-muted-foreground">
        <ShieldCheck className="mt-0.5 size-4.5 shrink-0 text-success" aria-hidden />
        We only store your city, never your precise location.
      </p>
    </StepFrame>
  );
}
