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
  /** A mixer for verified members only (issue 21): the client links to Get verified. */
  verified_only: 403,
  not_found: 404,
  /** The request took too long to arrive (Node's request timeout). */
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  /** An address (or one of its parts) longer than the server reads. */
  uri_too_long: 414,
  unsupported_media_type: 415,
  /** A chat line held before it was sent (issue 30: contact details, links, money in a mixer). */
  held: 422,
  /** A line that needs the sender's "send anyway" first (issue 30: abuse); resend with `confirmed: true`. */
  confirm_needed: 428,
  rate_limited: 429,
  /** Request headers over Node's limit. */
  headers_too_large: 431,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The code for a status that has none of its own in a refusal (Fastify, a plugin): the first code
 * with that status. A 4xx with no code at all is answered as 400 `bad_request`, so status and code
 * always agree.
 */
export function codeForStatus(status: number): { status: number; code: ErrorCode } {
  if (status === 400) return { status, code: 'bad_request' };
  const code = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((c) => ERROR_STATUS[c] === status);
  if (code) return { status, code };
  return status >= 500 ? { status: 500, code: 'internal' } : { status: 400, code: 'bad_request' };
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string';
}
