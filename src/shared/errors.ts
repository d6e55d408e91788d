/** The one error shape every non-2xx JSON response uses (DESIGN §5). */
export interface ApiErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    /** Per-field messages for validation errors, keyed by field path. */
    fields?: Record<string, string>;
  };
}

export const ERROR_STATUS = {
  validation: 400,
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  /** A mixer whose audience the member is not in (issue 13): the client shows a kind page. */
  not_for_you: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string';
}
