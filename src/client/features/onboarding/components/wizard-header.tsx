import { LogOut, UserPlus } from 'lucide-react';
import { useLayoutEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../../components/brand/logo';
import { Button } from '../../../components/ui/button';
import { progressPercent, stepLabel } from '../../../../shared/onboarding';

/** The wizard header's height, as a CSS variable on the document (see WizardHeader). */
export const HEADER_HEIGHT_VAR = '--wizard-header-h';

/**
 * "Step N of 11", the progress bar with the spec's percents, Save and complete later, Log out.
 * `signedOut` (the /test-onboarding preview without an account): Sign up instead of Log out.
 */
export function WizardHeader({
  step,
  onSaveLater,
  onLogout,
  signedOut = false,
  saving,
}: {
  step: number;
  onSaveLater?: () => void;
  onLogout?: () => void;
  signedOut?: boolean;
  saving?: boolean;
}) {
  const percent = progressPercent(step);
  const home = signedOut ? '/' : '/home';
  // Its height, for what sticks below it (the interests step's summary): a fixed offset left a gap
  // or an overlap whenever the header's wording or fonts changed its height.
  const header = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const el = header.current;
    if (!el) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() => root.setProperty(HEADER_HEIGHT_VAR, `${el.offsetHeight}px`));
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.removeProperty(HEADER_HEIGHT_VAR);
    };
  }, []);
  return (
    <header
      ref={header}
      className="sticky top-0 z-30 border-b border-border/70 bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75"
    >
      <div className="mx-auto flex max-w-3xl items-center justify-between gap-2 px-4 pt-3 sm:px-6 sm:pt-4">
        <Logo to={home} compact className="shrink-0 sm:hidden" />
        <Logo to={home} className="hidden shrink-0 sm:inline-flex" />
        <div className="flex items-center gap-1 sm:gap-2">
          {step > 0 && onSaveLater && (
            <Button variant="ghost" size="sm" onClick={onSaveLater} disabled={saving} className="px-2.5 text-primary sm:px-3">
              Save and complete later
            </Button>
          )}
          {onLogout && (
            <Button variant="ghost" size="sm" onClick={onLogout} className="px-2.5 text-muted-foreground sm:px-3">
              <LogOut aria-hidden />
              <span className="max-sm:sr-only">Log out</span>
            </Button>
          )}
          {signedOut && (
            <Button asChild variant="ghost" size="sm" className="px-2.5 text-muted-foreground sm:px-3">
              <Link to="/auth/register">
                <UserPlus aria-hidden />
                <span className="max-sm:sr-only">Sign up</span>
              </Link>
            </Button>
          )}
        </div>
      </div>
      <div className="mx-auto max-w-3xl px-4 pt-3 pb-3 sm:px-6">
        <div className="flex items-baseline justify-between text-sm">
          <p className="font-semibold text-foreground" aria-live="polite">
            {stepLabel(step)}
          </p>
          <p className="tabular-nums text-muted-foreground">{percent}% complete</p>
        </div>
        <div
          className="mt-2 h-2 overflow-hidden rounded-full bg-muted"
          role="progressbar"
          aria-label="Profile progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <div
            className="h-full rounded-full bg-gradient-to-r from-primary to-[#e85d9a] transition-[width] duration-500 ease-out"
            style={{ width: `${percent}%` }}
          />
        </div>
      </div>
    </header>
  );
}
