/**
 * Before harm (issue 30): what a sender is told when a line is held or needs a second look, and
 * what the receivers see. The detectors themselves run on the server (src/shared/safety/detect.ts).
 * Without zod (issue 33): `schemas/guard.ts` has the schemas and re-exports these.
 */
export const GUARD_MESSAGES = {
  heldContact:
    "To keep mixers safe, contact details and links can't be shared here — fancy them, and if it's mutual you can chat privately",
  heldScam:
    "To keep mixers safe, lines about money, gift cards, crypto or investments can't be shared here — Fancy is for getting to know each other",
  areYouSure: 'This line may come across as hurtful to the people reading it — are you sure you want to send it?',
  slowMode: "You're sending lines very quickly, so slow mode is on for you: one line every 10 seconds for the next 5 minutes.",
  slowModeWait: 'Slow mode is on for you: one line every 10 seconds. Please wait a moment before sending again.',
  /** Shown to the receiver, once per conversation, above a line with contact details (first 72 hours of a match). */
  contactNote:
    'Take your time before moving off Fancy. Keep chatting here until you feel you know them, and never share money or personal details with someone you haven’t met.',
  scamWarning:
    'This message mentions money, gift cards, crypto or investments. People on Fancy should never ask you for money — if this feels off, report it.',
  collapsedAbuse: 'Does this bother you?',
  hiddenByWords: 'Hidden by your word filter',
  hiddenWordsTooMany: 'You can hide up to 100 words or phrases.',
  hiddenWordEmpty: 'Type a word, phrase or emoji to hide.',
  hiddenWordTooLong: 'Keep each word or phrase to 50 characters.',
  hiddenWordDuplicate: 'That word is already on your list.',
} as const;

/** Per field, what a refused profile text is called ("Your bio contains contact details…"). */
export const PROFILE_TEXT_PARTS: Record<string, string> = {
  bio: 'Your bio',
  smallJoy: 'Your answer to “A small joy that matters to me”',
  loveToTalkAbout: 'Your answer to “A topic I love to talk about”',
  valueInRelationships: 'Your answer to “Something I value in relationships”',
  sharedExperience: 'Your answer to “An experience I would like to share with someone”',
  funFact: 'Your fun fact',
  promptAnswer: 'Your prompt answer',
  pronouns: 'Your pronouns',
  fullName: 'Your name',
  cityRegion: 'Your city or region',
};

export const profileTextRefusal = (field: string, kind: 'contact' | 'scam' | 'abuse') => {
  const part = PROFILE_TEXT_PARTS[field] ?? 'This text';
  if (kind === 'contact') return `${part} contains contact details or links. Share them in a private chat once you match.`;
  if (kind === 'scam') return `${part} mentions money, gift cards, crypto or investments. Please take that out.`;
  return `${part} contains words that could hurt someone. Please rephrase it.`;
};

/** Slow mode (issue 30): more than FLOOD_LINES lines in FLOOD_WINDOW_MS turns it on for SLOW_MODE_MS. */
export const FLOOD_LINES = 5;
export const FLOOD_WINDOW_MS = 10_000;
export const SLOW_MODE_MS = 5 * 60_000;
export const SLOW_MODE_INTERVAL_MS = 10_000;

export const HIDDEN_WORDS_MAX = 100;
export const HIDDEN_WORD_MAX_LENGTH = 50;
