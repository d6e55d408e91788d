import { ArrowLeft, ArrowRight } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';

export interface StepActions {
  onBack?: () => void;
  onContinue?: () => void;
  continueLabel?: string;
  continueDisabled?: boolean;
  busy?: boolean;
  /** Shown under the buttons (e.g. why Continue is disabled). */
  hint?: React.ReactNode;
}

/**
 * One wizard step: a large friendly heading (focused when the step opens, for keyboard and
 * screen-reader users), an optional line of copy, the content and Back / Continue.
 */
export function StepFrame({
  eyebrow,
  title,
  description,
  children,
  actions,
  footer,
  wide = false,
}: {
  eyebrow?: React.ReactNode;
  title: string;
  description?: React.ReactNode;
  children?: React.ReactNode;
  actions?: StepActions;
  /** Replaces the default Back / Continue row. */
  footer?: React.ReactNode;
  wide?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section aria-labelledby="wizard-step-title" className={cn('mx-auto w-full', wide ? 'max-w-3xl' : 'max-w-2xl')}>
      {eyebrow && <div className="mb-3">{eyebrow}</div>}
      <h1
        id="wizard-step-title"
        ref={heading}
        tabIndex={-1}
        className="font-display text-3xl leading-tight font-extrabold tracking-tight text-balance outline-none sm:text-4xl"
      >
        {title}
      </h1>
      {description && <p className="mt-3 text-base text-pretty text-muted-foreground sm:text-lg">{description}</p>}
      <div className="mt-8">{children}</div>
      {footer ?? (actions && <StepButtons {...actions} />)}
    </section>
  );
}

export function StepButtons({ onBack, onContinue, continueLabel = 'Continue', continueDisabled, busy, hint }: StepActions) {
  return (
    <StepFooter
      onBack={onBack}
      busy={busy}
      below={
        <div className="mt-3 min-h-5 text-right text-sm text-muted-foreground" aria-live="polite">
          {hint}
        </div>
      }
    >
      {onContinue && (
        <Button size="lg" onClick={onContinue} disabled={continueDisabled || busy} className="min-w-36">
          {continueLabel}
          {!busy && <ArrowRight aria-hidden />}
        </Button>
      )}
    </StepFooter>
  );
}

/** The row under a step: Back on the left (when there is one), the step's own button on the right, and what goes below. */
export function StepFooter({
  onBack,
  busy,
  below,
  children,
}: {
  onBack?: () => void;
  busy?: boolean;
  below?: React.ReactNode;
  children?: React.ReactNode;
}) {
  return (
    <div className="mt-10 border-t border-border pt-6">
      <div className="flex items-center justify-between gap-3">
        {onBack ? (
          <Button variant="outline" size="lg" onClick={onBack} disabled={busy} className="px-5">
            <ArrowLeft aria-hidden />
            Back
          </Button>
        ) : (
          <span />
        )}
        {children}
      </div>
      {below}
    </div>
  );
}
