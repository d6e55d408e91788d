/** The profile feature's public surface: home's availability prompt and its query (decision 025). */
export { availabilityQuery } from './availability/api';
export { AvailabilityPrompt } from './availability/availability-prompt';
