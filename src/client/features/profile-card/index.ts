/** The member card, shown by mixers, matches, messages, the profile page and the wizard's preview (decision 025). */
export { MemberProfileDialog } from './member-profile-dialog-on-demand';
export type { MemberRef } from './member-profile-dialog';
export { ProfileCard } from './profile-card';
