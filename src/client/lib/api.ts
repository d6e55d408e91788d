import { isApiErrorBody } from '../../shared/errors';

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

/** fetch() for our JSON API: same-origin cookies, JSON in and out, errors as ApiError. */
export async function api<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
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
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    if (isApiErrorBody(data)) throw new ApiError(res.status, data.error.code, data.error.message, data.error.fields);
    throw new ApiError(
      res.status,
      'http',
      res.status >= 500 ? 'Something went wrong on our side. Please try again.' : 'The request failed.',
    );
  }
  return data as T;
}
