import type { OwnProfile } from '../../../../shared/profile-texts';

export interface SectionProps {
  profile: OwnProfile;
  /** Shows unsaved edits in the preview card; null when editing ends. */
  onPreview(patch: Partial<OwnProfile> | null): void;
}
