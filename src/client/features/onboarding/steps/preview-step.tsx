import { Sparkles } from 'lucide-react';
import { formatDob } from '../../../../shared/profile-texts';
import { Button } from '../../../components/ui/button';
import { ProfileCard } from '../../profile-card';
import { StepFooter, StepFrame } from '../components/step-frame';
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
        <StepFooter onBack={back} busy={completing}>
          <Button size="lg" onClick={onComplete} disabled={completing} className="min-w-40 text-base">
            <Sparkles aria-hidden />
            {completing ? 'Setting up...' : 'I Fancy it'}
          </Button>
        </StepFooter>
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
