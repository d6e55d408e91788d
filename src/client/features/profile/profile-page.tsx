import { CircleCheck, Circle, EyeOff } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import type { OwnProfile } from '../../../shared/profile-texts';
import { Card } from '../../components/ui/card';
import { ProfileCard } from '../profile-card';
import { genderOptionsQuery, interestsQuery, orientationOptionsQuery } from '../onboarding';
import { useVerification, VerificationCard, verificationQuery } from '../verification';
import { ownProfileQuery, settingsQuery, useOwnProfile, useShareCity } from './api';
import { availabilityQuery, reliabilityQuery } from './availability/api';
import { preloadQueries } from '../../lib/query';
import { AvailabilitySection } from './availability/availability-section';
import { profileCompletion } from './completion';
import { AboutSection } from './sections/about';
import { BioSection } from './sections/bio';
import { IdentitySection } from './sections/identity';
import { InterestsSection } from './sections/interests';
import { LocationSection } from './sections/location';
import { LookingForSection } from './sections/looking-for';
import { PhotosSection } from './sections/photos';
import { PromptsSection } from './sections/prompts';
import { usePageTitle } from '../../lib/use-page-title';
import { LoadError } from '../../components/ui/load-error';

function Completion({ profile }: { profile: OwnProfile }) {
  const { percent, items } = profileCompletion(profile);
  return (
    <Card className="p-4 sm:p-5">
      <div className="flex items-center justify-between gap-3">
        <h2 id="completion-title" className="font-semibold">
          {percent === 100 ? 'Your profile is complete' : 'Profile completeness'}
        </h2>
        <span className="text-sm font-bold tabular-nums text-primary">{percent}%</span>
      </div>
      <div
        className="mt-2 h-2 overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-labelledby="completion-title"
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      {percent < 100 && (
        <ul className="mt-3 grid gap-1.5 text-sm sm:grid-cols-2">
          {items.map((item) => (
            <li key={item.label} className="flex items-center gap-2">
              {item.done ? (
                <CircleCheck className="size-4 shrink-0 text-success" aria-hidden />
              ) : (
                <Circle className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              )}
              {item.done ? (
                <span className="text-muted-foreground">
                  {item.label}
                  <span className="sr-only"> (done)</span>
                </span>
              ) : (
                <a href={`#${item.section}`} className="font-medium text-primary underline-offset-4 hover:underline">
                  Add {item.label.charAt(0).toLowerCase() + item.label.slice(1)}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/**
 * The editor renders once with everything it shows: the profile, the privacy setting the card
 * depends on, availability, verification, the reliability note and the catalogues its sections
 * pick from. All are in the page's HTML (src/shared/route-preload.ts): none is a render of its
 * own after the page is up.
 */
export const preload = () =>
  preloadQueries((client) => [
    client.ensureQueryData({ ...ownProfileQuery, revalidateIfStale: true }),
    client.ensureQueryData({ ...settingsQuery, revalidateIfStale: true }),
    client.ensureQueryData({ ...availabilityQuery, revalidateIfStale: true }),
    client.ensureQueryData({ ...verificationQuery, revalidateIfStale: true }),
    client.ensureQueryData({ ...reliabilityQuery, revalidateIfStale: true }),
    client.ensureQueryData({ ...genderOptionsQuery, revalidateIfStale: true }),
    client.ensureQueryData({ ...orientationOptionsQuery, revalidateIfStale: true }),
    client.ensureQueryData({ ...interestsQuery, revalidateIfStale: true }),
  ]);

export default function ProfilePage() {
  const profile = useOwnProfile();
  const shareCity = useShareCity();
  const verification = useVerification();
  const [draft, setDraft] = useState<Partial<OwnProfile>>({});

  usePageTitle('Your profile');

  // Each section shows its unsaved edits in the card; null clears that section's keys.
  const previewFor = useCallback(
    (keys: (keyof OwnProfile)[]) => (patch: Partial<OwnProfile> | null) =>
      setDraft((d) => {
        const next = { ...d };
        for (const k of keys) delete next[k];
        return patch ? { ...next, ...patch } : next;
      }),
    [],
  );
  const preview = useMemo(
    () => ({
      about: previewFor(['fullName', 'pronouns']),
      bio: previewFor(['bio']),
      identity: previewFor(['genderIdentities', 'sexualOrientations']),
      lookingFor: previewFor(['lookingFor']),
      interests: previewFor(['interests']),
      location: previewFor(['cityRegion']),
      prompts: previewFor(['smallJoy', 'loveToTalkAbout', 'valueInRelationships', 'sharedExperience']),
    }),
    [previewFor],
  );

  // The heading is the same while loading, and the placeholder grid is its own element (key):
  // React must not reuse it for the editor grid, which would count as the whole grid moving.
  if (profile.isPending) {
    return (
      <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6 md:py-10" aria-busy="true">
        <h1 className="font-display text-3xl font-extrabold sm:text-4xl">Your profile</h1>
        <p className="mt-2 text-muted-foreground">Edit any part of it; the card shows what other members see.</p>
        <span className="sr-only" role="status">
          Loading your profile
        </span>
        <div key="loading" className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_26rem] lg:gap-8">
          <div className="h-[32rem] animate-pulse rounded-2xl bg-muted lg:order-2" />
          <div className="grid gap-4 lg:order-1">
            {[0, 1, 2].map((i) => (
              <div key={i} className="h-44 animate-pulse rounded-2xl bg-muted" />
            ))}
          </div>
        </div>
      </div>
    );
  }

  if (profile.isError) {
    return (
      <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6 md:py-10">
        <h1 className="font-display text-3xl font-extrabold sm:text-4xl">Your profile</h1>
        <LoadError title="We couldn't load your profile just now." error={profile.error} onRetry={profile.refetch} className="mt-6" />
      </div>
    );
  }

  const p = profile.data;
  const shown = { ...p, ...draft };
  const cityHidden = shareCity.data === false;
  const editing = Object.keys(draft).length > 0;

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6 md:py-10">
      <h1 className="font-display text-3xl font-extrabold sm:text-4xl">Your profile</h1>
      <p className="mt-2 text-muted-foreground">Edit any part of it; the card shows what other members see.</p>

      <div key="profile" className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_26rem] lg:items-start lg:gap-8">
        <section aria-labelledby="as-others-title" className="grid gap-3 lg:sticky lg:top-6 lg:order-2">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="as-others-title" className="font-display text-lg font-bold">
              Your profile as others see it
            </h2>
            {editing && (
              <span className="rounded-full bg-accent px-2.5 py-0.5 text-xs font-semibold text-accent-foreground">Unsaved preview</span>
            )}
          </div>
          <ProfileCard
            profile={{ ...shown, cityRegion: cityHidden ? null : shown.cityRegion }}
            avatarUrl={p.avatar?.url ?? null}
            photoUrls={p.photos.map((ph) => ph.thumbUrl)}
            verified={verification.data?.state === 'verified'}
          />
          {cityHidden && p.cityRegion && (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <EyeOff className="size-4 shrink-0" aria-hidden />
              Your city is hidden from other members (Settings → Privacy).
            </p>
          )}
          <div className="order-first lg:order-none">
            <Completion profile={p} />
          </div>
        </section>

        <div className="grid min-w-0 gap-4 lg:order-1 [&>*]:skip-offscreen">
          <VerificationCard />
          <PhotosSection profile={p} />
          <AboutSection profile={p} onPreview={preview.about} />
          <BioSection profile={p} onPreview={preview.bio} />
          <PromptsSection profile={p} onPreview={preview.prompts} />
          <IdentitySection profile={p} onPreview={preview.identity} />
          <LookingForSection profile={p} onPreview={preview.lookingFor} />
          <InterestsSection profile={p} onPreview={preview.interests} />
          <AvailabilitySection profile={p} />
          <LocationSection profile={p} onPreview={preview.location} shareCity={shareCity.data} />
        </div>
      </div>
    </div>
  );
}
