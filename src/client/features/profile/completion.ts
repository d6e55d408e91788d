import { PROMPT_FIELDS } from '../../../shared/profile-texts';
import type { OwnProfile } from '../../../shared/profile-texts';
import { promptStatus } from '../../../shared/onboarding';

export interface CompletionItem {
  /** The id of the /profile section that fixes it. */
  section: string;
  label: string;
  done: boolean;
}

/**
 * How complete a profile is, as a checklist of what makes a profile worth talking to: the
 * required basics, then a picture, more photos, a bio, the prompts, interests and a city.
 */
export function profileCompletion(p: OwnProfile): { percent: number; items: CompletionItem[]; missing: CompletionItem[] } {
  const items: CompletionItem[] = [
    { section: 'about', label: 'Your name', done: Boolean(p.fullName?.trim()) },
    { section: 'identity', label: 'How you identify', done: p.genderIdentities.length > 0 },
    { section: 'looking-for', label: "What you're looking for", done: p.lookingFor.length > 0 },
    { section: 'photos', label: 'A profile picture', done: Boolean(p.avatar) },
    { section: 'photos', label: 'More photos', done: p.photos.length > 0 },
    { section: 'bio', label: 'A short bio', done: Boolean(p.bio?.trim()) },
    { section: 'prompts', label: 'The four prompts', done: PROMPT_FIELDS.every((f) => promptStatus(p[f] ?? '').ok) },
    { section: 'interests', label: 'At least 3 interests', done: p.interests.length >= 3 },
    { section: 'location', label: 'Your city', done: Boolean(p.cityRegion) },
  ];
  const done = items.filter((i) => i.done).length;
  return { percent: Math.round((done / items.length) * 100), items, missing: items.filter((i) => !i.done) };
}
