/** What the detectors can say about a line (issue 30); kept apart so the client never loads the detectors. */
export const SAFETY_FLAGS = ['contact', 'scam', 'abuse'] as const;
export type SafetyFlag = (typeof SAFETY_FLAGS)[number];
