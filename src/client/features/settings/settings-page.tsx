import { ShieldCheck } from 'lucide-react';
import { lazy, Suspense, startTransition, useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { UpdateSettingsInput } from '../../../shared/schemas/settings';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useToast } from '../../components/ui/toast';
import { useAuth } from '../../lib/auth';
import { settingsQuery, useSettings, useUpdateSettings } from './api';
import { preloadQueries } from '../../lib/query';
import { errorMessage } from './components/form-errors';
import { SettingsSection } from './components/section';
import { AppearanceSection } from './sections/appearance';
import { NotificationsSection } from './sections/notifications';
import { PushNotificationsSection } from './sections/push-notifications';
import { PrivacySection } from './sections/privacy';
import { HiddenWordsSection } from './sections/hidden-words';
import { usePageTitle } from '../../lib/use-page-title';

const NAV = [
  { id: 'appearance', label: 'Appearance' },
  { id: 'privacy', label: 'Privacy' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'hidden-words', label: 'Hidden words' },
  { id: 'safety', label: 'Safety and blocks' },
  { id: 'security', label: 'Security' },
  { id: 'your-data', label: 'Your data' },
] as const;

/** What a saved choice means, for the success toast. */
function savedMessage(input: UpdateSettingsInput): string {
  if (input.shareCityRegion !== undefined) {
    return input.shareCityRegion ? 'Other members can see your city again.' : 'Your city is now hidden from other members.';
  }
  if (input.onlyVerified !== undefined) {
    return input.onlyVerified
      ? 'We’ll place you only with verified members: For you and invitations follow it.'
      : 'We’ll place you with any members again.';
  }
  if (input.profileVisibility) {
    return input.profileVisibility === 'all'
      ? 'All Fancy members can now see your profile.'
      : "Only members you've shared a mixer with can see your profile.";
  }
  const [[key, on]] = Object.entries(input) as [keyof UpdateSettingsInput, boolean][];
  const what = {
    notifyMatch: 'new matches',
    notifyMessage: 'new messages',
    notifyMixerSoon: 'mixers starting soon',
    notifyInvitations: 'mixer invitations',
    notifyAfterMixer: 'who you clicked with after a mixer',
    notifyReports: 'the outcome of your reports',
  }[key as string];
  return on ? `We'll email you about ${what}.` : `No more emails about ${what}.`;
}

/** Banner states of the e-mail change link (GET /api/auth/verify-email redirects here with ?email=confirmed or ?error=…). */
function useEmailLinkOutcome() {
  const [params, setParams] = useSearchParams();
  const toast = useToast();
  const auth = useAuth();
  const confirmed = params.get('email') === 'confirmed';
  const error = params.get('error');
  useEffect(() => {
    if (!confirmed && !error) return;
    if (error) {
      toast({
        title: "Couldn't change your email",
        description:
          error === 'OTHER_ACCOUNT'
            ? 'That link is for another Fancy account: nothing was changed. Log out and log in to that account to use it.'
            : error === 'ADMIN_ADDRESS'
              ? 'That address cannot be moved to an existing account. Please contact support.'
              : error === 'TOKEN_EXPIRED'
                ? 'That link has expired. Please ask for a new one.'
                : 'That link is not valid any more. Please ask for a new one.',
        variant: 'destructive',
      });
    } else {
      toast({ title: 'Email address updated', description: 'Use your new address the next time you log in.' });
      void auth.refresh();
    }
    setParams({}, { replace: true });
  }, [confirmed, error, toast, auth, setParams]);
}

// Below the fold on a phone, with the heaviest code of the page (forms, two-step set-up, dialogs):
// their code loads and renders after the first paint, in a transition React can interrupt
// (decision 018, session 6), so the first paint is not one long task.
const SecuritySection = lazy(() => import('./sections/security').then((m) => ({ default: m.SecuritySection })));
const YourDataSection = lazy(() => import('./sections/your-data').then((m) => ({ default: m.YourDataSection })));

/** True once the page has painted: what is below the fold renders from then on. */
function useAfterFirstPaint() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    startTransition(() => setReady(true));
  }, []);
  return ready;
}

/** A later section's place while its code loads, so nothing below it moves twice. */
function SectionPlaceholder({ height }: { height: string }) {
  return <div className={`${height} animate-pulse rounded-2xl bg-muted`} aria-hidden />;
}

/** Tells its parent when it has mounted (inside a Suspense boundary: once the lazy sections are in). */
function Shown({ onShown }: { onShown: (shown: boolean) => void }) {
  useEffect(() => onShown(true), [onShown]);
  return null;
}

/** The member's settings, loaded with the page (decision 018). */
export const preload = () => preloadQueries((client) => [client.ensureQueryData({ ...settingsQuery, revalidateIfStale: true })]);

export default function SettingsPage() {
  const toast = useToast();
  const settings = useSettings();
  const update = useUpdateSettings();
  useEmailLinkOutcome();
  const later = useAfterFirstPaint();
  const { hash } = useLocation();
  // A link to a later section (/settings#your-data) scrolls there once it is rendered.
  const [laterShown, setLaterShown] = useState(false);
  useEffect(() => {
    if (!laterShown || !hash) return;
    document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [laterShown, hash]);

  usePageTitle('Settings');

  const save = (input: UpdateSettingsInput) =>
    update.mutate(input, {
      onSuccess: () => toast({ title: 'Settings saved', description: savedMessage(input) }),
      onError: (err) => toast({ title: "Couldn't save your settings", description: errorMessage(err), variant: 'destructive' }),
    });

  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:px-6 md:py-10">
      <h1 className="font-display text-3xl font-extrabold sm:text-4xl">Settings</h1>
      <p className="mt-2 text-muted-foreground">How Fancy looks, who sees what, and keeping your account safe.</p>

      <nav aria-label="Settings sections" className="-mx-4 mt-5 overflow-x-auto px-4 lg:hidden">
        <ul className="flex gap-2">
          {NAV.map((n) => (
            <li key={n.id}>
              <a
                href={`#${n.id}`}
                className="inline-flex h-9 items-center whitespace-nowrap rounded-full border border-border bg-card px-3.5 text-sm font-medium hover:bg-muted"
              >
                {n.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <div className="mt-6 lg:mt-8 lg:grid lg:grid-cols-[12rem_1fr] lg:gap-10">
        <nav aria-label="Settings sections" className="hidden lg:block">
          <ul className="sticky top-8 grid gap-1">
            {NAV.map((n) => (
              <li key={n.id}>
                <a
                  href={`#${n.id}`}
                  className="block rounded-xl px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-muted hover:text-foreground"
                >
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div className="grid min-w-0 grid-cols-1 gap-10">
          {/* Each section its own Suspense boundary: a page the server rendered (decision 028) is
              hydrated section by section, so the switches and radios of all of them (each sets
              its state again once mounted) are not one long task on a slow phone (decision 029). */}
          <Suspense>
            <AppearanceSection />
          </Suspense>
          {settings.isPending ? (
            <div className="grid gap-4" aria-busy="true">
              <span className="sr-only" role="status">
                Loading your settings
              </span>
              {[0, 1, 2].map((i) => (
                <div key={i} className="h-40 animate-pulse rounded-2xl bg-muted" />
              ))}
            </div>
          ) : settings.isError ? (
            <Card className="flex flex-col items-start gap-3 p-5">
              <p className="font-medium">We couldn't load your settings just now.</p>
              <p className="text-sm text-muted-foreground">{errorMessage(settings.error)}</p>
              <Button variant="outline" size="sm" onClick={() => void settings.refetch()}>
                Try again
              </Button>
            </Card>
          ) : (
            <>
              <Suspense>
                <PrivacySection settings={settings.data} save={save} />
              </Suspense>
              <Suspense>
                <NotificationsSection settings={settings.data} save={save} />
              </Suspense>
              <Suspense>
                <HiddenWordsSection />
              </Suspense>
              <SettingsSection
                id="safety"
                icon={ShieldCheck}
                title="Safety and blocks"
                description="The people you blocked, decisions our team made about your account and the reports you sent."
              >
                <Card className="flex flex-wrap items-center justify-between gap-3 p-5">
                  <p className="min-w-0 text-sm">Unblock someone, see a decision and appeal it, or follow up a report.</p>
                  <Button asChild variant="outline">
                    <Link to="/settings/safety">Open safety and blocks</Link>
                  </Button>
                </Card>
              </SettingsSection>
              {later ? (
                <>
                  <PushNotificationsSection />
                  <Suspense fallback={<SectionPlaceholder height="h-[40rem]" />}>
                    <SecuritySection settings={settings.data} />
                  </Suspense>
                </>
              ) : (
                <SectionPlaceholder height="h-[52rem]" />
              )}
            </>
          )}
          {later ? (
            <Suspense fallback={<SectionPlaceholder height="h-72" />}>
              <YourDataSection />
              <Shown onShown={setLaterShown} />
            </Suspense>
          ) : (
            <SectionPlaceholder height="h-72" />
          )}
        </div>
      </div>
    </div>
  );
}
