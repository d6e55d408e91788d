/** The invitations feature's public surface: home's invitation cards and their query (decision 025). */
export { invitationsQuery } from './api';
export { YourInvitations } from './invitation-card';
