import { ArrowLeft, Sparkles } from 'lucide-react';
import { formatDob } from '../../../../shared/schemas/profile';
import { Button } from '../../../components/ui/button';
import { ProfileCard } from '../../profile-card';
import { StepFrame } from '../components/step-frame';
import type { StepProps } from './types';

/** Step 11 (spec §2): the profile card and "I Fancy it". */
export function PreviewStep({ draft, back, photos, completing, onComplete }: StepProps & { completing: boolean; onComplete: () => void }) {
  const { day, month, year } = draft.dob;
  const avatar = draft.avatarKey ? photos[draft.avatarKey] : undefined;
  const photoUrls = draft.photoKeys.map((k) => photos[k]?.thumbUrl).filter((u): u is string => Boolean(u));
  return (
    <StepFrame
      title="Looking good!"
      description="This is how other members will see you. Happy with it?"
      footer={
        <div className="mt-10 border-t border-border pt-6">
          <div className="flex items-center justify-between gap-3">
            <Button variant="outline" size="lg" onClick={back} disabled={completing} className="px-5">
              <ArrowLeft aria-hidden />
              Back
            </Button>
            <Button size="lg" onClick={onComplete} disabled={completing} className="min-w-40 text-base">
              <Sparkles aria-hidden />
              {completing ? 'Setting up...' : 'I Fancy it'}
            </Button>
          </div>
        </div>
      }
    >
      <ProfileCard
        profile={{
          fullName: draft.fullName,
          dob: day && month && year ? formatDob({ day, month, year }) : null,
          pronouns: draft.pronouns.trim() || null,
          cityRegion: draft.cityRegion.trim() || null,
          bio: draft.bio,
          genderIdentities: draft.genderIdentities,
          sexualOrientations: draft.sexualOrientations,
          lookingFor: draft.lookingFor,
          interests: draft.interests,
          smallJoy: draft.smallJoy,
          loveToTalkAbout: draft.loveToTalkAbout,
          valueInRelationships: draft.valueInRelationships,
          sharedExperience: draft.sharedExperience,
        }}
        avatarUrl={avatar?.thumbUrl}
        photoUrls={photoUrls}
      />
    </StepFrame>
  );
}
