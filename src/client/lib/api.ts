import { isApiErrorBody } from '../../shared/errors';
import { EMBEDDED_DATA_ID, EMBEDDED_DATA_MAX_AGE_MS } from '../../shared/route-preload';

/** An API failure carrying the server's user-facing message and per-field messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const NETWORK_ERROR = 'We could not reach Fancy. Check your connection and try again.';

let embedded: Map<string, unknown> | undefined;

function embeddedAnswers(): Map<string, unknown> {
  if (!embedded) {
    embedded = new Map();
    const script = typeof document === 'undefined' ? null : document.getElementById(EMBEDDED_DATA_ID);
    if (script) {
      try {
        embedded = new Map(Object.entries(JSON.parse(script.textContent ?? '{}') as Record<string, unknown>));
      } catch {
        // A page without usable data asks the server, as any other.
      }
      script.remove();
    }
  }
  return embedded;
}

/**
 * The server renders a member page with the same answers it embeds (src/client/ssr.tsx): they
 * are this render's only data. `undefined` ends the render's use of them.
 */
export function setServerRenderAnswers(answers: Record<string, unknown> | undefined) {
  embedded = answers ? new Map(Object.entries(answers)) : undefined;
}

const fresh = () => typeof document === 'undefined' || performance.now() <= EMBEDDED_DATA_MAX_AGE_MS;

/** The embedded answer for `path` without taking it (what the first render is made from). */
export function peekEmbedded(path: string): { data: unknown } | undefined {
  const answers = embeddedAnswers();
  return answers.has(path) && fresh() ? { data: answers.get(path) } : undefined;
}

/**
 * The answer the server put into a member page for `path` (decision 018,
 * src/server/http/member-page.ts), taken once: the first request of each URL while the page
 * loads uses it, every later one asks the server.
 */
export function takeEmbedded(path: string): { data: unknown } | undefined {
  const answers = embeddedAnswers();
  if (!answers.has(path)) return undefined;
  const data = answers.get(path);
  answers.delete(path);
  return fresh() ? { data } : undefined;
}

/** fetch() for our JSON API: same-origin cookies, JSON in and out, errors as ApiError. */
export async function api<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  if (init.body === undefined && (init.method ?? 'GET') === 'GET') {
    const hit = takeEmbedded(path);
    if (hit) return hit.data as T;
  }
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      credentials: 'same-origin',
      headers:
        init.body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'network', NETWORK_ERROR);
  }
  return answer<T>(res, (status) => (status >= 500 ? 'Something went wrong on our side. Please try again.' : 'The request failed.'));
}

/** The answer's JSON; a failure as ApiError with the server's message, else `otherwise(status)`. */
async function answer<T>(res: Response, otherwise: (status: number) => string): Promise<T> {
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    if (isApiErrorBody(data)) throw new ApiError(res.status, data.error.code, data.error.message, data.error.fields);
    throw new ApiError(res.status, 'http', otherwise(res.status));
  }
  return data as T;
}

/**
 * A multipart POST (uploads, camera frames) with api()'s cookies and errors. A failure the
 * server did not explain says `otherwise` ('' lets the caller show its own words).
 */
export async function postForm<T>(path: string, form: FormData, otherwise: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { method: 'POST', body: form, credentials: 'same-origin', headers: { accept: 'application/json' } });
  } catch {
    throw new ApiError(0, 'network', NETWORK_ERROR);
  }
  return answer<T>(res, () => otherwise);
}
