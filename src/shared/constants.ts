/** Business constants and limits (spec §9). */
export const PRODUCT_NAME = 'Fancy';

export const MIN_AGE = 18;
export const DOB_YEAR_SPAN = 100;
export const WIZARD_STEPS = 11;
export const AUTOSAVE_MS = 1000;
export const COMPLETION_REDIRECT_MS = 1000;

export const FULL_NAME_MAX = 30;
export const PRONOUNS_MAX = 40;
/** A city typed in (the picker's "Other"), in characters. */
export const CITY_REGION_MAX = 80;
export const BIO_MAX = 800;
export const PROMPT_MIN = 60;
export const PROMPT_MAX = 200;
export const ORIENTATIONS_MAX = 5;
export const LOOKING_FOR_MAX = 3;
export const INTERESTS_MAX_UI = 15;
export const INTERESTS_MAX_SCHEMA = 20;
export const PHOTOS_MAX_SCHEMA = 9;
export const EXTRA_PHOTOS_MAX = 6;
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

export const PREVIEW_INTERESTS = 6;
export const PREVIEW_PHOTOS = 3;
export const DEFAULT_COUNTRY = 'GB';
export const DEFAULT_TZ = 'Europe/London';

export const MIXER_DEFAULT_CAPACITY = 10;
export const SIGNED_URL_TTL_S = 3600;

export const SIDEBAR_COOKIE = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE_S = 60 * 60 * 24 * 7;
export const MOBILE_BREAKPOINT_PX = 768;
export const BADGE_CAP = 99;

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1000;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD = 50;
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

export const REFRESH_BACKOFF_MS = 200;

export const LOOKING_FOR_OPTIONS = ['Dating', 'Friends', 'Casual'] as const;
export type LookingFor = (typeof LOOKING_FOR_OPTIONS)[number];

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
