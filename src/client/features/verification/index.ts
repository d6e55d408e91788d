/** The verification feature's public surface: the member's status and its card (decision 025). */
export { useVerification, verificationQuery } from './api';
export { VerificationCard } from './verification-card';
