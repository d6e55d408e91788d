import type { OwnProfile } from '../../../../shared/schemas/profile';

export interface SectionProps {
  profile: OwnProfile;
  /** Shows unsaved edits in the preview card; null when editing ends. */
  onPreview(patch: Partial<OwnProfile> | null): void;
}
