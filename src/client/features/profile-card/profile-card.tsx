import { VerifiedBadge } from '../../components/ui/verified-badge';
import { MapPin } from 'lucide-react';
import { PREVIEW_INTERESTS, PREVIEW_PHOTOS } from '../../../shared/constants';
import { ageFromDob, takeWithRest } from '../../../shared/onboarding';
import { type OwnProfile, PROMPTS } from '../../../shared/profile-texts';
import { Card } from '../../components/ui/card';
import { Tags } from '../../components/ui/tags';
import { cn } from '../../lib/cn';
import { Avatar } from '../../components/ui/avatar';

/**
 * The fields a profile card shows (a subset of the profile API's answer). Another member's
 * card has no date of birth: it passes `age` instead.
 */
export type ProfileCardProfile = Partial<Pick<OwnProfile, 'dob'>> &
  Pick<
    OwnProfile,
    | 'fullName'
    | 'pronouns'
    | 'cityRegion'
    | 'bio'
    | 'genderIdentities'
    | 'sexualOrientations'
    | 'lookingFor'
    | 'interests'
    | 'smallJoy'
    | 'loveToTalkAbout'
    | 'valueInRelationships'
    | 'sharedExperience'
  >;

export interface ProfileCardProps {
  /** Shows the verified badge beside the name (issue 21). */
  verified?: boolean;
  profile: ProfileCardProfile;
  /** Signed URL of the profile picture, or null for the initial. */
  avatarUrl?: string | null;
  /** Signed URLs of the other photos (thumbnails are fine), in order. */
  photoUrls?: string[];
  /** Show every interest and photo instead of the first 6 / 3 with "+N more". */
  expanded?: boolean;
  /** The age when known without a date of birth (another member's card); else computed from `dob`. */
  age?: number | null;
  className?: string;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="mt-6">
      <h3 className="text-xs font-bold tracking-wider text-muted-foreground uppercase">{title}</h3>
      <div className="mt-2.5">{children}</div>
    </section>
  );
}

/**
 * A member's profile card (spec §2 step 11): avatar, name with age, pronouns, city, bio,
 * identities, looking-for, the first 6 interests plus "+N more", the four prompts and the
 * first 3 photos plus "+N". Used by the onboarding preview and the profile page.
 */
export function ProfileCard({
  profile,
  avatarUrl,
  photoUrls = [],
  expanded = false,
  age: knownAge,
  className,
  verified,
}: ProfileCardProps) {
  const name = profile.fullName?.trim() || 'Your name';
  const age = knownAge !== undefined ? knownAge : ageFromDob(profile.dob);
  const interests = expanded ? { shown: profile.interests, rest: 0 } : takeWithRest(profile.interests, PREVIEW_INTERESTS);
  const photos = expanded ? { shown: photoUrls, rest: 0 } : takeWithRest(photoUrls, PREVIEW_PHOTOS);
  const prompts = PROMPTS.filter((p) => profile[p.field]?.trim());

  return (
    <Card className={cn('@container overflow-hidden', className)}>
      <div className="h-20 bg-gradient-to-br from-primary/85 via-[#e85d9a] to-secondary @lg:h-24" aria-hidden />
      {/* Laid out by the card's own width (a narrow column on the profile page, a wide dialog), so a long name never rides up onto the band. */}
      <div className="px-5 pb-6 @lg:px-7 @lg:pb-7">
        <div className="-mt-12 flex flex-col items-start gap-3 @lg:-mt-10 @lg:flex-row @lg:items-end @lg:gap-5">
          <Avatar name={name} src={avatarUrl} className="size-24 border-4 border-card text-3xl shadow-md @lg:size-28" />
          <div className="min-w-0 pb-1">
            <h2 className="font-display text-2xl leading-tight font-extrabold @lg:text-3xl">
              {name}
              {age !== null && <span className="font-bold text-muted-foreground">, {age}</span>}
              {verified && <VerifiedBadge className="ml-2 align-middle" />}
            </h2>
            <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
              {profile.pronouns && <span>{profile.pronouns}</span>}
              {profile.cityRegion && (
                <span className="inline-flex min-w-0 max-w-full items-center gap-1">
                  <MapPin className="size-3.5 shrink-0" aria-hidden />
                  {profile.cityRegion}
                </span>
              )}
            </p>
          </div>
        </div>

        {profile.bio?.trim() && <p className="mt-5 text-base leading-relaxed whitespace-pre-line text-pretty">{profile.bio.trim()}</p>}

        {profile.genderIdentities.length > 0 && (
          <Section title="Gender identity">
            <Tags items={profile.genderIdentities} />
          </Section>
        )}
        {profile.sexualOrientations.length > 0 && (
          <Section title="Orientation">
            <Tags items={profile.sexualOrientations} />
          </Section>
        )}
        {profile.lookingFor.length > 0 && (
          <Section title="Looking for">
            <Tags items={profile.lookingFor} tone="accent" />
          </Section>
        )}
        {interests.shown.length > 0 && (
          <Section title="Interests">
            <Tags items={interests.shown} more={interests.rest} tone="accent" />
          </Section>
        )}

        {prompts.length > 0 && (
          <div className="mt-6 grid gap-3">
            {prompts.map((p) => (
              <figure key={p.field} className="rounded-2xl bg-muted/70 p-4">
                <figcaption className="text-xs font-bold tracking-wide text-primary uppercase">{p.label}</figcaption>
                <blockquote className="mt-1.5 text-[0.95rem] leading-relaxed">{profile[p.field]}</blockquote>
              </figure>
            ))}
          </div>
        )}

        {photos.shown.length > 0 && (
          <Section title="Photos">
            <ul className="grid grid-cols-4 gap-2 sm:gap-3">
              {photos.shown.map((url, i) => (
                <li key={url} className="aspect-square overflow-hidden rounded-xl bg-muted">
                  <img src={url} alt={`${name}, ${i + 1} of ${photoUrls.length}`} className="size-full object-cover" loading="lazy" />
                </li>
              ))}
              {photos.rest > 0 && (
                <li className="flex aspect-square items-center justify-center rounded-xl bg-secondary text-lg font-bold text-secondary-foreground">
                  <span aria-hidden>+{photos.rest}</span>
                  <span className="sr-only">{photos.rest} more photos</span>
                </li>
              )}
            </ul>
          </Section>
        )}
      </div>
    </Card>
  );
}
