import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The answers a member page carries (decision 018): each taken once, then the server is asked. */
describe('embedded first reads', () => {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify({ from: 'server' }), { status: 200 }));
  let removed = false;
  beforeEach(() => {
    vi.resetModules();
    removed = false;
    fetchMock.mockClear();
    vi.stubGlobal('fetch', fetchMock);
    // A page that has just loaded. The real clock is this test process's: in a worker that has
    // already run other files it is past the embedded answers' lifetime (a fresh-clone CI run
    // failed so), so the tests' outcome depended on which files ran first.
    vi.spyOn(performance, 'now').mockReturnValue(1_000);
    vi.stubGlobal('document', {
      getElementById: (id: string) =>
        id === 'fancy-data'
          ? {
              textContent: JSON.stringify({ '/api/stats': { from: 'page' }, '/api/auth/session': { user: null } }),
              remove: () => {
                removed = true;
              },
            }
          : null,
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('the first GET of a URL the page carries uses its answer; the next one asks the server', async () => {
    const { api } = await import('./api');
    expect(await api('/api/stats')).toEqual({ from: 'page' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(removed).toBe(true);
    expect(await api('/api/stats')).toEqual({ from: 'server' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('other URLs and writes always go to the server', async () => {
    const { api } = await import('./api');
    expect(await api('/api/stats?x=1')).toEqual({ from: 'server' });
    expect(await api('/api/auth/session', { method: 'POST', body: {} })).toEqual({ from: 'server' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('an answer asked for long after the page loaded is not used', async () => {
    vi.spyOn(performance, 'now').mockReturnValue(60_000);
    const { api } = await import('./api');
    expect(await api('/api/stats')).toEqual({ from: 'server' });
  });
});

/** Uploads and camera frames: the same cookies and error shape as api(), with the caller's words for an unexplained failure. */
describe('postForm', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  const answer = (status: number, body?: unknown) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(body === undefined ? '' : JSON.stringify(body), { status })),
    );

  it('posts the form with the session cookie and returns the JSON answer', async () => {
    answer(200, { photos: [] });
    const { postForm } = await import('./api');
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.jpg');
    expect(await postForm('/api/profile/photos', form, '')).toEqual({ photos: [] });
    const [path, init] = (fetch as unknown as ReturnType<typeof vi.fn>).mock.calls[0] as [string, RequestInit];
    expect(path).toBe('/api/profile/photos');
    expect(init).toMatchObject({ method: 'POST', body: form, credentials: 'same-origin' });
  });

  it("raises the server's message and field errors, else the caller's words, and a network failure as such", async () => {
    const { ApiError, NETWORK_ERROR, postForm } = await import('./api');
    answer(413, { error: { code: 'too_large', message: 'That photo is over 10 MB.', fields: { file: 'Too large' } } });
    const told = await postForm('/x', new FormData(), '').catch((e: unknown) => e);
    expect(told).toBeInstanceOf(ApiError);
    expect(told).toMatchObject({ status: 413, code: 'too_large', message: 'That photo is over 10 MB.', fields: { file: 'Too large' } });

    answer(502);
    expect(await postForm('/x', new FormData(), 'Something went wrong on our side.').catch((e: unknown) => e)).toMatchObject({
      status: 502,
      message: 'Something went wrong on our side.',
    });

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect(await postForm('/x', new FormData(), '').catch((e: unknown) => e)).toMatchObject({ status: 0, message: NETWORK_ERROR });
  });
});
