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
